import { describe, expect, it } from 'vitest';
import { contains, containsAll, containsAny, equals, icontains, notContains, regex } from '../../../src/grading';

describe('equals', () => {
  it('ignores case, whitespace and punctuation at the ends', () => {
    expect(equals('  The answer is\n42. ', '"the answer is 42"').pass).toBe(true);
    expect(equals('Paris!', 'paris').score).toBe(1);
  });
  it('keeps punctuation that changes meaning', () => {
    expect(equals('50%', '50').pass).toBe(false);
    expect(equals('a-b', 'ab').pass).toBe(false);
  });
  it('fails on an empty answer with a reason naming both', () => {
    const r = equals('', 'Paris');
    expect(r).toMatchObject({ type: 'equals', pass: false, score: 0 });
    expect(r.reason).toContain('"Paris"');
  });
  it('handles unicode (NFKC, non-Latin case)', () => {
    expect(equals('ＣＡＦÉ', 'café').pass).toBe(true);
    expect(equals('ΑΘΗΝΑ', 'αθηνα').pass).toBe(true);
  });
});

describe('contains / icontains', () => {
  it('contains is case-sensitive, whitespace-insensitive', () => {
    expect(contains('Open from\n9 to 5', 'from 9').pass).toBe(true);
    expect(contains('Open from 9', 'open').pass).toBe(false);
  });
  it('icontains ignores case', () => {
    const r = icontains('Open FROM 9', 'from 9');
    expect(r).toMatchObject({ type: 'icontains', pass: true, score: 1 });
  });
  it('reports what is missing', () => {
    expect(contains('', 'x').reason).toBe('does not contain "x"');
  });
});

describe('contains-all / contains-any / not-contains', () => {
  const answer = 'Our store in München opens at 9 and closes at 18.';
  it('contains-all scores the fraction found and names the missing phrases', () => {
    const r = containsAll(answer, ['münchen', 'OPENS', 'Sunday', 'holiday']);
    expect(r).toMatchObject({ pass: false, score: 0.5 });
    expect(r.reason).toContain('missing 2 of 4 phrases: "Sunday", "holiday"');
    expect(containsAll(answer, ['store', 'closes']).pass).toBe(true);
  });
  it('contains-any passes on one hit', () => {
    expect(containsAny(answer, ['Monday', 'at 9']).reason).toBe('contains "at 9"');
    expect(containsAny(answer, ['Monday']).pass).toBe(false);
  });
  it('not-contains fails on any forbidden phrase', () => {
    const r = notContains(answer, ['closes', 'sorry', 'cannot']);
    expect(r.pass).toBe(false);
    expect(r.score).toBeCloseTo(2 / 3);
    expect(r.reason).toContain('"closes"');
    expect(notContains('', ['x']).pass).toBe(true);
  });
  it('empty lists are vacuous', () => {
    expect(containsAll('x', []).pass).toBe(true);
    expect(containsAny('x', []).pass).toBe(true);
    expect(notContains('x', []).score).toBe(1);
  });
});

describe('regex', () => {
  it('matches with and without flags', () => {
    expect(regex('Call 555-1234', { pattern: '\\d{3}-\\d{4}' }).pass).toBe(true);
    expect(regex('PARIS', { pattern: 'paris' }).pass).toBe(false);
    expect(regex('PARIS', { pattern: 'paris', flags: 'i' }).pass).toBe(true);
  });
  it('supports unicode and dotall flags', () => {
    expect(regex('straße', { pattern: '^\\p{L}+$', flags: 'u' }).pass).toBe(true);
    expect(regex('a\nb', { pattern: 'a.b' }).pass).toBe(false);
    expect(regex('a\nb', { pattern: 'a.b', flags: 's' }).pass).toBe(true);
  });
  it('is not stateful with g/y flags', () => {
    const spec = { pattern: 'x', flags: 'g' };
    expect(regex('x', spec).pass).toBe(true);
    expect(regex('x', spec).pass).toBe(true);
  });
  it('reports an invalid pattern instead of throwing', () => {
    const r = regex('x', { pattern: '(' });
    expect(r.pass).toBe(false);
    expect(r.reason).toMatch(/^invalid regex \/\(\/: /);
  });
  it('names the match', () => {
    expect(regex('Total: 42 EUR', { pattern: '\\d+' }).reason).toBe('/\\d+/ matches "42"');
  });
});
