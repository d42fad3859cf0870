import { AnswerShape, offersShape } from './answerShape';
import type { Hit, KbDocument, SiteKnowledge } from './knowledge';
import { sentences, terms } from './tokenize';

/** Query terms with weights: 1 for the question, less for earlier turns. */
export type Weighted = ReadonlyMap<string, number>;

/** A sentence of a candidate document, scored against the question. */
export interface RankedSentence {
  hit: Hit;
  /** Position in its document. */
  index: number;
  text: string;
  /** IDF-weighted share of the question the sentence itself covers (0..1). */
  own: number;
  /** Share covered by the sentence, its neighbours and the title together (0..1): how on-topic the passage is. */
  passage: number;
  /** The ranking score: sentence evidence plus the document's retrieval score. */
  score: number;
}

/** A question term found only next to the sentence (neighbours, title) counts this much. */
const NEAR_WEIGHT = 0.5;
/** Weight of the document's normalized retrieval score in a sentence's score. */
const DOC_WEIGHT = 0.3;
/** Added to a sentence that holds a candidate answer of the shape the question asks for (a number, a name, a place). */
const SHAPE_BONUS: Readonly<Record<AnswerShape, number>> = { number: 0.1, name: 0.1, place: 0.1, other: 0 };
/** Two question terms in a row in the sentence (a phrase) add this share of the rarer one's weight. */
const PHRASE_BONUS = 0.5;

type Sentences = readonly { readonly text: string; readonly terms: readonly string[] }[];

/** Split documents per context size: a document's text never changes, and every question splits its candidates again. */
const split = new WeakMap<KbDocument, Map<number | null, Sentences>>();

/** Sentences of a document with their terms; `contextChars` truncates what the model sees. */
export function documentSentences(doc: KbDocument, contextChars: number | null): Sentences {
  const cached = split.get(doc)?.get(contextChars);
  if (cached) return cached;
  const text = doc.content ?? doc.answer ?? '';
  const seen = contextChars === null ? text : text.slice(0, contextChars);
  const list = sentences(seen);
  const out = (list.length > 0 ? list : [seen]).map((s) => ({ text: s, terms: terms(s) }));
  const forDoc = split.get(doc) ?? new Map<number | null, Sentences>();
  forDoc.set(contextChars, out);
  split.set(doc, forDoc);
  return out;
}

/** Sum of weight × IDF of the query terms in `found`, with a bonus for adjacent query-term pairs in `ordered`. */
function evidence(kb: SiteKnowledge, query: Weighted, found: ReadonlySet<string>, ordered: readonly string[]): number {
  let sum = 0;
  for (const [t, w] of query) if (found.has(t)) sum += kb.idf(t) * w;
  for (let i = 1; i < ordered.length; i++) {
    const a = ordered[i - 1] as string;
    const b = ordered[i] as string;
    if (a !== b && query.has(a) && query.has(b)) sum += PHRASE_BONUS * Math.min(kb.idf(a), kb.idf(b)) * Math.min(query.get(a) ?? 0, query.get(b) ?? 0);
  }
  return sum;
}

/**
 * Ranks every sentence of the candidate documents: what the sentence covers of the question, what
 * its neighbours and the title add (less), and how well its document was retrieved. Best first.
 */
export function rankSentences(kb: SiteKnowledge, query: Weighted, hits: readonly Hit[], contextChars: number | null, shape: AnswerShape = AnswerShape.other): RankedSentence[] {
  let total = 0;
  for (const [t, w] of query) total += kb.idf(t) * w;
  if (total <= 0 || hits.length === 0) return [];
  const top = hits[0]?.score ?? 1;
  const asked = new Set(query.keys());
  const out: RankedSentence[] = [];
  for (const hit of hits) {
    const list = documentSentences(hit.doc, contextChars);
    const title = new Set(terms(hit.doc.title));
    const sets = list.map((s) => new Set(s.terms));
    list.forEach((s, i) => {
      const own = evidence(kb, query, sets[i] as Set<string>, s.terms);
      const around = new Set<string>([...title, ...(sets[i - 1] ?? []), ...(sets[i + 1] ?? [])]);
      let near = 0;
      for (const [t, w] of query) if (!sets[i]?.has(t) && around.has(t)) near += kb.idf(t) * w;
      const passage = Math.min(1, (own + near) / total);
      const candidate = shape !== AnswerShape.other && offersShape(s.text, shape, asked) ? SHAPE_BONUS[shape] : 0;
      const score = (own + NEAR_WEIGHT * near) / total + DOC_WEIGHT * (hit.score / top) + candidate;
      out.push({ hit, index: i, text: s.text, own: Math.min(1, own / total), passage, score });
    });
  }
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}
