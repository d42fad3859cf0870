/** Metric graders on what the API reports about an answer. Pure and deterministic. */
import type { AnswerForGrading, AssertionResult } from '../domain/grade';
import { clamp01 } from './reasons';

/**
 * The API's `confidence_score` (0..100) must be at least `threshold`. Sync answers carry no score,
 * so they fail with a reason saying so. The score is confidence / 100.
 */
export function minConfidence(answer: AnswerForGrading, threshold: number): AssertionResult {
  const confidence = answer.confidenceScore;
  if (confidence === undefined) {
    return { type: 'min-confidence', pass: false, score: 0, reason: `no confidence score reported (need >= ${threshold})` };
  }
  const pass = confidence >= threshold;
  const reason = `confidence ${confidence} ${pass ? '>=' : '<'} ${threshold}`;
  return { type: 'min-confidence', pass, score: clamp01(confidence / 100), reason };
}

/**
 * The answer's latency must be at most `ms`. The score is 1 when within budget, else budget / latency.
 */
export function maxLatency(answer: AnswerForGrading, ms: number): AssertionResult {
  const latency = answer.latencyMs;
  if (latency === undefined) {
    return { type: 'max-latency', pass: false, score: 0, reason: `no latency measured (limit ${ms} ms)` };
  }
  const pass = latency <= ms;
  const reason = `latency ${Math.round(latency)} ms ${pass ? '<=' : '>'} ${ms} ms`;
  return { type: 'max-latency', pass, score: pass ? 1 : clamp01(ms / latency), reason };
}
