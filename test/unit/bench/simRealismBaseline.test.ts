import { describe, expect, it } from 'vitest';
import { cutToWords, SentenceBm25 } from '../../../bench/sim-realism-baseline';
import type { SquadArticle } from '../../../bench/sim-realism-data';

/** Synthetic paragraphs (not SQuAD data). */
const articles: SquadArticle[] = [
  { title: 'Rivers', paragraphs: [{ context: 'The river is long. The Rhine flows through Basel. The river has many bridges.', qas: [] }] },
  { title: 'Towns', paragraphs: [{ context: 'Basel is a town on a river. Its bridges are old and made of stone.', qas: [] }] },
];

describe('plain BM25 bar of the realism bench', () => {
  const bm25 = new SentenceBm25(articles);

  it('ranks sentences of every paragraph by BM25, rare words first, and answers with the 2 best', () => {
    expect(bm25.top('Where does the Rhine flow?')).toEqual(['The Rhine flows through Basel.', 'The river is long.']);
    expect(bm25.top('Which bridges are made of stone?')[0]).toBe('Its bridges are old and made of stone.');
  });

  it('matches words as written: no stemming, no case, nothing for a question with no word of the text', () => {
    expect(bm25.top('Which RHINE?', 5)).toEqual(['The Rhine flows through Basel.']);
    expect(bm25.top('flow')).toEqual([]);
    // Only "is" matches: the shorter sentence first (BM25's length normalization).
    expect(bm25.top('Why is zebra?')).toEqual(['The river is long.', 'Basel is a town on a river.']);
  });

  it('cuts its best sentences to exactly the length asked for', () => {
    expect(cutToWords(bm25.top('Where does the Rhine flow?', Infinity), 7)).toBe('The Rhine flows through Basel. The river');
    expect(cutToWords(bm25.top('Where does the Rhine flow?', Infinity), 3)).toBe('The Rhine flows');
    expect(cutToWords(bm25.top('zebra', Infinity), 10)).toBe('');
  });
});
