import { describe, expect, it } from 'vitest';
import { histogram, mcnemarExact, niceCeil, percentile } from '../../../src/analysis/stats';

describe('mcnemarExact', () => {
  it.each([
    [10, 2, 0.0385742],
    [5, 5, 1],
    [0, 0, 1],
    [6, 0, 0.03125],
    [1, 0, 1],
    [20, 8, 0.0356981],
    [3, 12, 0.0351563],
    [600, 400, 2.72846e-10],
  ])('b=%i c=%i → p≈%f', (b, c, p) => {
    const result = mcnemarExact(b, c);
    expect(result.pValue).toBeCloseTo(p, 6);
    expect(result.pValue / p).toBeCloseTo(1, 4);
    expect(result.significant).toBe(p < 0.05);
  });

  it('stays finite and within [0, 1] for 100,000 discordant pairs', () => {
    expect(mcnemarExact(50_000, 50_000).pValue).toBe(1);
    const lopsided = mcnemarExact(50_400, 49_600).pValue;
    expect(lopsided).toBeGreaterThan(0.01);
    expect(lopsided).toBeLessThan(0.02);
    expect(mcnemarExact(100_000, 0).pValue).toBe(0);
  });

  it('honours a custom alpha', () => {
    expect(mcnemarExact(10, 2, 0.01)).toMatchObject({ significant: false, alpha: 0.01 });
  });
});

describe('percentile (nearest rank)', () => {
  const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);
  it('returns values that occurred', () => {
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([], 50)).toBeNull();
  });
});

describe('histogram', () => {
  it('bins values, clamping the maximum into the last bin', () => {
    expect(histogram([0, 9, 10, 55, 100], 0, 100, 10)).toEqual({ start: 0, width: 10, counts: [2, 1, 0, 0, 0, 1, 0, 0, 0, 1] });
  });
  it('picks round upper bounds', () => {
    expect([0, 1, 3, 7, 19, 2400, 4100].map(niceCeil)).toEqual([1, 1, 5, 10, 20, 2500, 5000]);
  });
});
