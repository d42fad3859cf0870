import { describe, expect, it } from 'vitest';
import { referenceReasons } from '../../../src/analysis/matrixComparison';
import { type ComparisonDigest } from '../../../src/domain/multiSite';

function digest(pairs: ComparisonDigest['pairs']): ComparisonDigest {
  return { conclusion: '', best: null, alpha: 0.05, pairedRows: 100, unpairedRows: 0, variants: [], pairs, files: [] };
}

const pair = (first: string, second: string, wins: number, losses: number, adjustedP: number): ComparisonDigest['pairs'][number] => ({
  first, second, wins, ties: 100 - wins - losses, losses, test: 'mcnemar', p: adjustedP / 2, adjustedP, significant: adjustedP < 0.05,
  better: wins > losses ? 'first' : losses > wins ? 'second' : null,
});

describe('referenceReasons (--reference)', () => {
  it('fails the reference on every variant that beats it significantly, whichever side of the pair it is on', () => {
    const reasons = referenceReasons(digest([pair('a', 'ref', 20, 2, 0.001), pair('ref', 'b', 1, 15, 0.004), pair('a', 'b', 5, 4, 1)]), 'ref');
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/^the reference variant ref is beaten significantly by a: a passed 20 rows that ref failed and failed 2 that it passed \(McNemar p 5\.00e-4, Holm-adjusted 0\.001 < alpha 0\.05\)$/u);
    expect(reasons[1]).toMatch(/beaten significantly by b: b passed 15 rows that ref failed and failed 1/u);
  });

  it('holds when the reference wins, or loses without significance', () => {
    expect(referenceReasons(digest([pair('ref', 'a', 20, 2, 0.001), pair('ref', 'b', 3, 9, 0.3)]), 'ref')).toEqual([]);
  });
});
