import { I_DONT_KNOW } from '../constants';
import { Prng } from '../prng';
import { evidenceMismatch, type MismatchKind } from './answerable';
import type { Hit, KbDocument, SiteKnowledge } from './knowledge';
import type { ModelProfile } from './models';
import type { AnswerVariation } from './noise';
import { documentSentences, rankSentences, type RankedSentence, type Weighted } from './rank';
import { answerShape, answerTypeTerm } from './answerShape';
import { FRAME_TERMS, terms } from './tokenize';
import { missingTermMismatch, unmatchedTerms } from './unmatched';

export type ConfidenceLevel = 'low' | 'medium' | 'high';

export interface ComposedAnswer {
  answer: string;
  /** 0..100 */
  confidenceScore: number;
  confidenceLevel: ConfidenceLevel;
  confidenceReason: string;
  /** How the answer was made (admin/debug only, never in API responses). */
  source: {
    kind: 'qa' | 'passage' | 'none'; documentId?: string; title?: string; coverage: number; similarity?: number;
    /** For an "I don't know" on topic (step 5): the check that refused. */
    check?: MismatchKind;
  };
}

export interface AnswerInput {
  message: string;
  /** Earlier user messages of the same session, most recent first. */
  previousMessages?: readonly string[];
  model: ModelProfile;
  seed: number;
  /** This request's departure from the model's usual answer (`AnswerNoise`); absent: the usual answer. */
  variation?: AnswerVariation;
}

/** Weight of a question's framing words ("name", "year", "how many"); its topic words weigh 1. */
const FRAME_WEIGHT = 0.3;
/** Weights of the previous questions' terms in a follow-up query (most recent first). */
const CONTEXT_WEIGHTS = [0.3, 0.2];
/** Below this IDF-weighted coverage of the question, the assistant says it does not know. */
export const MIN_COVERAGE = 0.3;
/** A Q&A document whose question is at least this similar is answered verbatim. */
const QA_SIMILARITY = 0.5;
/** A further sentence joins the answer only if its score is at least this share of the best one's. */
const SECOND_SENTENCE = 0.5;
/**
 * A sentence of another retrieved document joins the answer when it scores at least this share of the best
 * one: an assistant that reads several retrieved passages combines the ones that match almost equally well.
 */
const OTHER_DOCUMENT = 0.6;
/** Below this many words, an answer may take one sentence more than the model's limit. */
const SHORT_ANSWER_WORDS = 50;
/** Documents whose sentences are ranked. */
const CANDIDATES = 6;
/** A sentence opening with one of these needs the sentence before it. */
const ANAPHORA = /^(it|this|that|these|those|they|then)\b/i;


export function confidenceLevel(score: number): ConfidenceLevel {
  return score >= 75 ? 'high' : score >= 45 ? 'medium' : 'low';
}

/** IDF- and weight-weighted share of the query terms that occur in `found`. */
function coverage(kb: SiteKnowledge, query: Weighted, found: ReadonlySet<string>): number {
  let total = 0;
  let hit = 0;
  for (const [t, weight] of query) {
    const w = kb.idf(t) * weight;
    total += w;
    if (found.has(t)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}

const ones = (list: Iterable<string>): Weighted => new Map([...list].map((t) => [t, 1]));

/** IDF-weighted F1 between the question and a Q&A document's question. */
function similarity(kb: SiteKnowledge, query: ReadonlySet<string>, doc: KbDocument): number {
  const other = new Set(terms(`${doc.question ?? ''} ${doc.title}`));
  const p = coverage(kb, ones(other), query);
  const r = coverage(kb, ones(query), other);
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

/**
 * The answer text: the best-ranked sentence, the sentence before it when it opens with a pronoun, then
 * the next best sentences of the same document (in document order) and at most one sentence per other
 * document that scores almost as well (after them), up to the model's limit.
 */
export function composeFrom(ranked: readonly RankedSentence[], model: ModelProfile): string {
  const best = ranked[0] as RankedSentence;
  const list = documentSentences(best.hit.doc, model.contextChars);
  const chosen = new Set<number>([best.index]);
  const others: RankedSentence[] = [];
  if (best.index > 0 && ANAPHORA.test(best.text) && model.maxSentences > 1) chosen.add(best.index - 1);
  const words = (): number => [...chosen].reduce((n, i) => n + (list[i]?.text.split(' ').length ?? 0), 0) + others.reduce((n, r) => n + r.text.split(' ').length, 0);
  for (const r of ranked) {
    const size = chosen.size + others.length;
    // Short sentences leave room for one more: answers are about as long as a couple of full sentences.
    if (size >= model.maxSentences && (model.maxSentences < 2 || size > model.maxSentences || words() >= SHORT_ANSWER_WORDS)) break;
    if (r.hit.doc !== best.hit.doc) {
      if (r.score >= best.score * OTHER_DOCUMENT && !others.some((o) => o.hit.doc === r.hit.doc)) others.push(r);
      continue;
    }
    if (chosen.has(r.index) || r.score < best.score * SECOND_SENTENCE) continue;
    chosen.add(r.index);
  }
  return [...[...chosen].sort((x, y) => x - y).map((i) => list[i]?.text ?? ''), ...others.map((o) => o.text)].join(' ');
}

function finish(model: ModelProfile, rng: Prng, raw: number, answer: string, reason: string, source: ComposedAnswer['source']): ComposedAnswer {
  const jitter = model.confidenceJitter ? (rng.next() * 2 - 1) * model.confidenceJitter : 0;
  const score = Math.max(0, Math.min(100, Math.round(raw * 100 * model.confidenceFactor + jitter)));
  return { answer, confidenceScore: score, confidenceLevel: confidenceLevel(score), confidenceReason: reason, source };
}

/** The question's terms (weight 1) plus, for models that read the conversation, earlier questions' terms. */
function queryTerms(input: AnswerInput): Map<string, number> {
  const typeTerm = answerTypeTerm(input.message);
  const query = new Map<string, number>(terms(input.message).map((t) => [t, FRAME_TERMS.has(t) || t === typeTerm ? FRAME_WEIGHT : 1]));
  if (!input.model.useConversation) return query;
  (input.previousMessages ?? []).slice(0, CONTEXT_WEIGHTS.length).forEach((m, i) => {
    for (const t of terms(m)) if (!query.has(t)) query.set(t, CONTEXT_WEIGHTS[i] ?? 0);
  });
  return query;
}

/** What the assistant retrieved and read for a question, before it decides how to answer. */
export interface Reading {
  model: ModelProfile;
  rng: Prng;
  /** Query terms with weights (the question's, then earlier turns'). */
  query: Map<string, number>;
  /** The question's own terms. */
  current: Set<string>;
  hits: Hit[];
  /** Sentences of the retrieved documents, best first. */
  ranked: RankedSentence[];
}

/** Steps 1–2: the query, the retrieved documents and their ranked sentences. */
export function readFor(kb: SiteKnowledge, input: AnswerInput): Reading {
  const { variation } = input;
  const model = variation?.kind === 'length' ? { ...input.model, maxSentences: Math.max(1, input.model.maxSentences + variation.delta) } : input.model;
  const rng = new Prng(input.seed, `answer:${model.name}:${input.message}`);
  const query = queryTerms(input);
  const current = new Set(terms(input.message));
  const context = [...query.keys()].filter((t) => !current.has(t));
  let hits: Hit[] = kb.search([...current], context, (t) => query.get(t) ?? 0, CANDIDATES);
  if (hits.length > 1 && model.wrongDocumentRate > 0 && rng.next() < model.wrongDocumentRate) hits = hits.slice(1);
  if (hits.length > 1 && variation?.kind === 'other-document') hits = hits.slice(1);
  const ranked = rankSentences(kb, query, hits, model.contextChars, answerShape(input.message));
  return { model, rng, query, current, hits, ranked };
}

/**
 * Answers a question from a site's documents: a Q&A document whose question matches well gives
 * its answer; otherwise the best sentences of the top document; otherwise an honest "I don't know".
 * Pure for a given knowledge base, input and seed.
 */
export function composeAnswer(kb: SiteKnowledge, input: AnswerInput): ComposedAnswer {
  const { model, rng, query, current, hits, ranked } = readFor(kb, input);
  const best = ranked[0];
  const relevance = best ? best.passage : 0;
  if (!best || relevance < MIN_COVERAGE) {
    const top = hits[0];
    return finish(model, rng, 0.05 + 0.3 * relevance, I_DONT_KNOW,
      `No article in the knowledge base matches the question well enough (best match ${Math.round(relevance * 100)}%).`,
      { kind: 'none', coverage: relevance, ...(top ? { documentId: top.doc.id, title: top.doc.title } : {}) });
  }
  const qa = hits.slice(0, 3).filter((h) => h.doc.kind === 'qa')
    .map((h) => ({ h, sim: similarity(kb, current, h.doc) }))
    .sort((x, y) => y.sim - x.sim)[0];
  if (qa && qa.sim >= QA_SIMILARITY && (qa.h === hits[0] || qa.sim >= 0.7)) {
    const text = model.contextChars === null ? (qa.h.doc.answer ?? '') : composeFrom(rankSentences(kb, query, [qa.h], model.contextChars), model);
    return finish(model, rng, 0.35 + 0.6 * qa.sim + 0.05 * relevance, text,
      `Answered from the Q&A article "${qa.h.doc.title}" (question similarity ${Math.round(qa.sim * 100)}%).`,
      { kind: 'qa', documentId: qa.h.doc.id, title: qa.h.doc.title, coverage: relevance, similarity: qa.sim });
  }
  const typeTerm = answerTypeTerm(input.message);
  const mismatch = evidenceMismatch(input.message, best.text, `${best.hit.doc.title} ${best.hit.doc.content ?? best.hit.doc.answer ?? ''}`)
    ?? missingTermMismatch(unmatchedTerms(kb, input.message, best, new Set(typeTerm ? [typeTerm] : [])));
  if (mismatch) {
    return finish(model, rng, 0.1 + 0.3 * relevance, I_DONT_KNOW,
      `The article "${best.hit.doc.title}" is on topic, but ${mismatch.reason}.`,
      { kind: 'none', coverage: relevance, documentId: best.hit.doc.id, title: best.hit.doc.title, check: mismatch.kind });
  }
  const text = composeFrom(ranked, model);
  const found = [...current].filter((t) => best.hit.matched.has(t)).length;
  return finish(model, rng, confidenceOf(ranked), text,
    `Based on the article "${best.hit.doc.title}": ${found} of ${current.size} key terms of the question found.`,
    { kind: 'passage', documentId: best.hit.doc.id, title: best.hit.doc.title, coverage: relevance });
}

/**
 * Confidence of a passage answer (0..1): how much of the question the best sentence itself covers,
 * how on-topic its passage is, and how clearly it beats the best sentence of any other document.
 */
function confidenceOf(ranked: readonly RankedSentence[]): number {
  const best = ranked[0] as RankedSentence;
  const rival = ranked.find((r) => r.hit.doc !== best.hit.doc);
  const margin = rival ? Math.max(0, Math.min(1, (best.score - rival.score) / best.score)) : 1;
  return 0.15 + 0.45 * best.own + 0.2 * best.passage + 0.2 * margin;
}
