import { I_DONT_KNOW } from '../constants';
import { Prng } from '../prng';
import { SiteKnowledge, type Hit, type KbDocument } from './knowledge';
import type { ModelProfile } from './models';
import { terms } from './text';

export type ConfidenceLevel = 'low' | 'medium' | 'high';

export interface ComposedAnswer {
  answer: string;
  /** 0..100 */
  confidenceScore: number;
  confidenceLevel: ConfidenceLevel;
  confidenceReason: string;
  /** How the answer was made (admin/debug only, never in API responses). */
  source: { kind: 'qa' | 'passage' | 'none'; documentId?: string; title?: string; coverage: number; similarity?: number };
}

export interface AnswerInput {
  message: string;
  /** Earlier user messages of the same session, most recent first. */
  previousMessages?: readonly string[];
  model: ModelProfile;
  seed: number;
}

/** Weights of the previous questions' terms in a follow-up query (most recent first). */
const CONTEXT_WEIGHTS = [0.3, 0.2];
/** Below this IDF-weighted coverage of the question, the assistant says it does not know. */
const MIN_COVERAGE = 0.45;
/** A Q&A document whose question is at least this similar is answered verbatim. */
const QA_SIMILARITY = 0.5;
/** A further sentence joins the answer only if it covers at least this share of what the best one covers. */
const SECOND_SENTENCE = 0.6;
/** A sentence opening with one of these needs the sentence before it. */
const ANAPHORA = /^(it|this|that|these|those|they|then)\b/i;

/** Query terms with weights: 1 for the question, less for context. */
type Weighted = ReadonlyMap<string, number>;

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

/** The passage sentences that best cover the query, in document order, each with its antecedent if it needs one. */
function bestSentences(kb: SiteKnowledge, query: Weighted, doc: KbDocument, model: ModelProfile): { text: string; support: number } {
  const list = SiteKnowledge.passageSentences(doc, model.contextChars);
  const scored = list.map((s, i) => ({ i, score: coverage(kb, query, new Set(terms(s))) }));
  const best = Math.max(0, ...scored.map((x) => x.score));
  const ranked = best > 0
    ? [...scored].sort((a, b) => b.score - a.score || a.i - b.i).filter((x) => x.score >= best * SECOND_SENTENCE)
    : scored;
  const chosen = new Set<number>();
  for (const { i } of ranked) {
    if (chosen.size >= model.maxSentences) break;
    if (chosen.has(i)) continue;
    if (i > 0 && ANAPHORA.test(list[i] ?? '') && !chosen.has(i - 1)) {
      if (chosen.size + 2 > model.maxSentences) continue;
      chosen.add(i - 1);
    }
    chosen.add(i);
  }
  if (chosen.size === 0) chosen.add(ranked[0]?.i ?? 0);
  return { text: [...chosen].sort((a, b) => a - b).map((i) => list[i]).join(' '), support: best };
}

function finish(model: ModelProfile, rng: Prng, raw: number, answer: string, reason: string, source: ComposedAnswer['source']): ComposedAnswer {
  const jitter = model.confidenceJitter ? (rng.next() * 2 - 1) * model.confidenceJitter : 0;
  const score = Math.max(0, Math.min(100, Math.round(raw * 100 * model.confidenceFactor + jitter)));
  return { answer, confidenceScore: score, confidenceLevel: confidenceLevel(score), confidenceReason: reason, source };
}

/** The question's terms (weight 1) plus, for models that read the conversation, earlier questions' terms. */
function queryTerms(input: AnswerInput): Map<string, number> {
  const query = new Map<string, number>(terms(input.message).map((t) => [t, 1]));
  if (!input.model.useConversation) return query;
  (input.previousMessages ?? []).slice(0, CONTEXT_WEIGHTS.length).forEach((m, i) => {
    for (const t of terms(m)) if (!query.has(t)) query.set(t, CONTEXT_WEIGHTS[i] ?? 0);
  });
  return query;
}

/**
 * Answers a question from a site's documents: a Q&A document whose question matches well gives
 * its answer; otherwise the best sentences of the top document; otherwise an honest "I don't know".
 * Pure for a given knowledge base, input and seed.
 */
export function composeAnswer(kb: SiteKnowledge, input: AnswerInput): ComposedAnswer {
  const { model } = input;
  const rng = new Prng(input.seed, `answer:${model.name}:${input.message}`);
  const query = queryTerms(input);
  const current = new Set([...query].filter(([, w]) => w === 1).map(([t]) => t));
  const context = [...query.keys()].filter((t) => !current.has(t));
  let hits: Hit[] = kb.search([...current], context, (t) => query.get(t) ?? 0);
  if (hits.length > 1 && model.wrongDocumentRate > 0 && rng.next() < model.wrongDocumentRate) hits = hits.slice(1);
  const top = hits[0];
  const cov = top ? coverage(kb, ones(current), top.matched) : 0;
  const ctxCov = top && context.length ? coverage(kb, query, top.matched) : 0;
  const relevance = Math.max(cov, ctxCov * 0.9);
  if (!top || relevance < MIN_COVERAGE) {
    return finish(model, rng, 0.05 + 0.3 * relevance, I_DONT_KNOW,
      `No article in the knowledge base matches the question well enough (best match ${Math.round(relevance * 100)}%).`,
      { kind: 'none', coverage: relevance, ...(top ? { documentId: top.doc.id, title: top.doc.title } : {}) });
  }
  const qa = hits.slice(0, 3).filter((h) => h.doc.kind === 'qa')
    .map((h) => ({ h, sim: similarity(kb, current, h.doc) }))
    .sort((a, b) => b.sim - a.sim)[0];
  if (qa && qa.sim >= QA_SIMILARITY && (qa.h === top || qa.sim >= 0.7)) {
    const text = model.contextChars === null ? (qa.h.doc.answer ?? '') : bestSentences(kb, query, qa.h.doc, model).text;
    return finish(model, rng, 0.35 + 0.6 * qa.sim + 0.05 * relevance, text,
      `Answered from the Q&A article "${qa.h.doc.title}" (question similarity ${Math.round(qa.sim * 100)}%).`,
      { kind: 'qa', documentId: qa.h.doc.id, title: qa.h.doc.title, coverage: relevance, similarity: qa.sim });
  }
  const { text, support } = bestSentences(kb, query, top.doc, model);
  const found = [...current].filter((t) => top.matched.has(t)).length;
  return finish(model, rng, 0.2 + 0.65 * relevance * (0.7 + 0.3 * support), text,
    `Based on the article "${top.doc.title}": ${found} of ${current.size} key terms of the question found.`,
    { kind: 'passage', documentId: top.doc.id, title: top.doc.title, coverage: relevance });
}
