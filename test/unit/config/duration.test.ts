import { describe, expect, it } from 'vitest';
import { DurationError, parseDuration } from '../../../src/config';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250], ['90s', 90_000], ['5m', 300_000], ['1h', 3_600_000], ['7d', 604_800_000],
    ['1h30m', 5_400_000], ['1.5s', 1_500], [' 2M ', 120_000], ['0s', 0],
  ])('%s → %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('rejects a bare number with a hint', () => {
    expect(() => parseDuration('90')).toThrow(DurationError);
    expect(() => parseDuration('90')).toThrow('invalid duration "90" (add a unit, e.g. "90s")');
  });

  it.each(['', '5x', '-5m', 'm', '5 minutes', '1h 30m'])('rejects %j', (text) => {
    expect(() => parseDuration(text)).toThrow(/use a number with a unit ms, s, m, h or d/);
  });
});
