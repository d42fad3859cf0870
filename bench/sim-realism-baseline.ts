/**
 * The bar the simulator's realism figure is read against: a plain retriever with no reader, Okapi BM25 over the
 * sentences of every paragraph, answering with its 2 best sentences. How many answers contain a reference depends
 * on the articles far more than on the assistant (retrieval is harder where an article has many paragraphs about one
 * subject), so a figure on one file means little without this one on the same file.
 *
 * Plain on purpose: words are lower-cased letters and digits, with no stemming, stop words, synonyms, title or
 * fuzzy matching, and BM25's textbook k1 1.2 and b 0.75; sentences are split as the simulator splits them.
 */
import { sentences } from '../src/sim/kb/tokenize';
import type { SquadArticle } from './sim-realism-data';

const K1 = 1.2;
const B = 0.75;
/** Sentences in an answer: what "top 2" means in the issue that set the bar. */
export const BASELINE_SENTENCES = 2;

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class SentenceBm25 {
  private readonly texts: string[] = [];
  private readonly lengths: number[] = [];
  /** term → [sentence, count] pairs */
  private readonly postings = new Map<string, [number, number][]>();
  private readonly averageLength: number;

  constructor(articles: readonly SquadArticle[]) {
    for (const p of articles.flatMap((a) => a.paragraphs)) {
      for (const s of sentences(p.context)) {
        const id = this.texts.length;
        const sentenceWords = words(s);
        const counts = new Map<string, number>();
        for (const w of sentenceWords) counts.set(w, (counts.get(w) ?? 0) + 1);
        for (const [w, n] of counts) {
          const list = this.postings.get(w) ?? [];
          list.push([id, n]);
          this.postings.set(w, list);
        }
        this.texts.push(s);
        this.lengths.push(sentenceWords.length);
      }
    }
    this.averageLength = this.lengths.reduce((s, n) => s + n, 0) / Math.max(1, this.lengths.length);
  }

  /** The `count` best sentences for a question, best first (ties: the earlier sentence); none when no word matches. */
  top(question: string, count = BASELINE_SENTENCES): string[] {
    const n = this.texts.length;
    const scores = new Map<number, number>();
    for (const w of new Set(words(question))) {
      const list = this.postings.get(w);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [id, tf] of list) {
        const norm = K1 * (1 - B + (B * (this.lengths[id] ?? 0)) / this.averageLength);
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (K1 + 1)) / (tf + norm));
      }
    }
    return [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, count).map(([id]) => this.texts[id] as string);
  }
}

/**
 * Ranked sentences (`top(question, Infinity)`) cut to exactly `length` words (fewer only when they hold fewer): the bar
 * at the simulator's own answer length, as longer answers contain a reference more often.
 */
export function cutToWords(ranked: readonly string[], length: number): string {
  const out: string[] = [];
  for (const s of ranked) {
    const room = length - out.length;
    if (room <= 0) break;
    out.push(...s.split(/\s+/).filter(Boolean).slice(0, room));
  }
  return out.join(' ');
}
