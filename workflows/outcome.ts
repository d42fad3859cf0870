import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { assertionsForRow, combineGrades, gradeAnswer } from '../src/grading';
import type { GradeResult } from '../src/grading/types';
import type { DatasetRow } from '../src/datasets/types';
import { rowBase } from '../src/reports/rowResult';
import { Outcome, type RowResult } from '../src/reports/types';
import type { AskResult } from '../activities/types';
import type { RunKind, RunOptions } from './types';

/** Turns an answer into the row's outcome; grading is pure code, so it runs here, deterministically. */
export function answeredResult(
  kind: RunKind,
  row: DatasetRow,
  ask: AskResult,
  options: RunOptions,
  finishedAt: string,
  customGrade?: GradeResult,
): { result: RowResult; grade?: GradeResult } {
  const base: RowResult = {
    ...rowBase(row),
    model: row.model ?? options.model,
    outcome: Outcome.answered,
    answer: ask.answer,
    confidenceScore: ask.confidenceScore,
    confidenceLevel: ask.confidenceLevel,
    confidenceReason: ask.confidenceReason,
    latencyMs: ask.latencyMs,
    sessionId: ask.sessionId,
    requestId: ask.requestId,
    finishedAt,
  };
  if (ask.status === 'failed') return { result: { ...base, outcome: Outcome.error, error: `request failed: ${ask.error ?? 'no error given'}`, errorType: 'RequestFailed' } };
  if (ask.status === 'timed_out') return { result: { ...base, outcome: Outcome.timedOut, error: ask.error } };
  if (kind === 'backfill') return { result: base };
  const specs = assertionsForRow(row, options.assertions, options.thresholds).filter((s) => s.type !== 'custom');
  const grade = combineGrades(
    gradeAnswer(row, { answer: ask.answer ?? '', confidenceScore: ask.confidenceScore, latencyMs: ask.latencyMs }, specs),
    customGrade?.assertions ?? [],
  );
  if (!grade.graded) return { result: base, grade };
  return { result: { ...base, outcome: grade.pass ? Outcome.passed : Outcome.failed, assertions: grade.assertions }, grade };
}

/** Why an activity failed, in the words the API used: "401 invalid_api_key …". */
export function describeFailure(err: unknown): { message: string; type: string; status?: number } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as { status?: number } | undefined;
    return { message: cause.message, type: cause.type ?? 'Error', status: details?.status };
  }
  if (cause instanceof Error) return { message: cause.message, type: cause.name };
  return { message: String(cause), type: 'Error' };
}

/**
 * Errors that no row can recover from: a bad key, a plan without API access, an unknown site. They end the
 * run at once with the API's reason instead of failing every row the same way.
 */
export function isFatal(failure: { type: string; message: string }): boolean {
  if (failure.type === 'AuthenticationError' || failure.type === 'PermissionDeniedError') return true;
  return failure.type === 'NotFoundError' && failure.message.includes('site not found');
}
