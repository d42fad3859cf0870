import { describe, expect, it } from 'vitest';
import { maxLatency, minConfidence } from '../../../src/grading';

describe('min-confidence', () => {
  it('passes at or above the threshold', () => {
    expect(minConfidence({ answer: 'x', confidenceScore: 70 }, 70)).toEqual({
      type: 'min-confidence', pass: true, score: 0.7, reason: 'confidence 70 >= 70',
    });
    expect(minConfidence({ answer: 'x', confidenceScore: 69 }, 70).reason).toBe('confidence 69 < 70');
  });
  it('fails without a score (sync answers)', () => {
    const r = minConfidence({ answer: 'x' }, 50);
    expect(r).toMatchObject({ pass: false, score: 0 });
    expect(r.reason).toContain('no confidence score');
  });
});

describe('max-latency', () => {
  it('passes within budget', () => {
    expect(maxLatency({ answer: '', latencyMs: 900 }, 1000)).toMatchObject({ pass: true, score: 1 });
  });
  it('scores budget / latency when over', () => {
    const r = maxLatency({ answer: '', latencyMs: 4000 }, 1000);
    expect(r).toMatchObject({ pass: false, score: 0.25, reason: 'latency 4000 ms > 1000 ms' });
  });
  it('fails when latency is unknown', () => {
    expect(maxLatency({ answer: '' }, 1000).pass).toBe(false);
  });
});
