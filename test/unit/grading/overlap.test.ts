import { describe, expect, it } from 'vitest';
import { lcsLength, rougeL, rougeLScore, squadTokens, tokenF1, tokenF1Score } from '../../../src/grading';

describe('SQuAD normalization', () => {
  it('lower-cases, strips punctuation and articles', () => {
    expect(squadTokens('The  Eiffel-Tower, in a city!')).toEqual(['eiffeltower', 'in', 'city']);
    expect(squadTokens('An apple; the end.')).toEqual(['apple', 'end']);
  });
  it('keeps words that merely start with an article', () => {
    expect(squadTokens('another theory')).toEqual(['another', 'theory']);
  });
  it('splits Han/Kana text into characters', () => {
    expect(squadTokens('東京タワー')).toEqual(['東', '京', 'タ', 'ワ', 'ー']);
  });
});

describe('token F1', () => {
  it('matches the SQuAD reference computation', () => {
    // pred: [paris, is, capital] ref: [capital, of, france, is, paris] → common 3, P=1, R=0.6
    expect(tokenF1Score('Paris is the capital.', 'The capital of France is Paris')).toBeCloseTo(0.75);
  });
  it('counts repeated tokens as a multiset', () => {
    expect(tokenF1Score('yes yes yes', 'yes')).toBeCloseTo(0.5);
  });
  it('handles empty texts', () => {
    expect(tokenF1Score('', '')).toBe(1);
    expect(tokenF1Score('', 'Paris')).toBe(0);
    expect(tokenF1Score('the', 'a')).toBe(1);
  });
  it('gives a readable verdict', () => {
    const r = tokenF1('Lyon', 'Paris is the capital', 0.5, 'expected');
    expect(r).toMatchObject({ type: 'f1', pass: false, score: 0 });
    expect(r.reason).toBe('token F1 0.00 < 0.50 against expected');
    expect(tokenF1('Paris', 'Paris', 0.5, 'value').reason).toBe('token F1 1.00 >= 0.50 against value');
  });
  it('works on unicode text', () => {
    expect(tokenF1Score('Grüße aus München', 'grüße aus münchen!')).toBe(1);
    expect(tokenF1Score('東京です', '東京')).toBeCloseTo(2 / 3);
  });
});

describe('ROUGE-L', () => {
  it('computes the LCS', () => {
    expect(lcsLength(['a', 'b', 'c', 'd'], ['b', 'd'])).toBe(2);
    expect(lcsLength([], ['x'])).toBe(0);
  });
  it('is an LCS F-measure', () => {
    // pred 7 tokens, ref 6 tokens, LCS = "the cat on the mat" (5)
    const score = rougeLScore('the cat was sitting on the mat', 'the cat sat on the mat');
    const p = 5 / 7;
    const r = 5 / 6;
    expect(score).toBeCloseTo((2 * p * r) / (p + r));
  });
  it('respects order, unlike F1', () => {
    expect(tokenF1Score('b a', 'a b')).toBe(1);
    expect(rougeLScore('b a', 'a b')).toBeCloseTo(0.5);
  });
  it('handles empty answers and reports its verdict', () => {
    expect(rougeLScore('', '')).toBe(1);
    const r = rougeL('', 'Paris', 0.4, 'expected');
    expect(r).toMatchObject({ type: 'rouge-l', pass: false, score: 0, reason: 'ROUGE-L 0.00 < 0.40 against expected' });
  });
});
