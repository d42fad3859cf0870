import type { AssertionResult } from '../grading/types';

/** Exactly one per dataset row. */
export const Outcome = {
  passed: 'passed',
  failed: 'failed',
  /** Answered, no assertion to grade it with (backfills, or evaluation rows without assertions). */
  answered: 'answered',
  error: 'error',
  timedOut: 'timed_out',
  skipped: 'skipped',
} as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** One line of results.jsonl. Never contains the API key. */
export interface RowResult {
  id: string;
  /** Dataset order, so reports and backfill output can be written in file order. */
  index: number;
  line: number;
  question: string;
  conversation?: string;
  turn?: number;
  email?: string;
  model?: string;
  expected?: string;
  tags?: string[];
  metadata?: Record<string, string>;
  outcome: Outcome;
  answer?: string;
  assertions?: AssertionResult[];
  confidenceScore?: number;
  confidenceLevel?: string;
  confidenceReason?: string;
  latencyMs?: number;
  sessionId?: string;
  requestId?: string;
  /** Feedback sent for this row: good/bad, `failed` when the API refused it, absent when none was due. */
  feedback?: 'good' | 'bad' | 'failed';
  /** Human-readable error: HTTP status and the API's `error` string, or the failed request's `error`. */
  error?: string;
  /** Class name of the error (e.g. `AuthenticationError`), for grouping. */
  errorType?: string;
  /** ISO time the row finished. */
  finishedAt?: string;
}
