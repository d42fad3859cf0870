import type { LabelLookup } from '../src/labels/subject';
import type { LabelMatch } from '../src/domain/label';
import type { AnswerRecord } from '../src/domain/rowResult';
import type { DatasetRow, WorkUnit } from '../src/domain/dataset';
import type { RowResult, SettledCall } from '../src/domain/results';
import type { OutcomeCounts, RunInput } from '../src/domain/run';

/**
 * One question sent to the API; everything a retry needs is in here, in the heartbeat details, or in the results
 * store's submission record of (`runId`, `rowId`).
 */
export interface AskInput {
  runId: string;
  rowId: string;
  siteId: string;
  mode: 'async' | 'sync';
  message: string;
  sessionId?: string;
  email?: string;
  model?: string;
  responseLanguage?: string;
  uiLocale?: string;
  answerTimeoutMs: number;
  /**
   * Which ask of the row this is: absent (0) the first, k its k-th re-ask after the service failed the request before
   * (`--reask-failed`). A re-ask never polls an earlier ask's request, and keeps an earlier ask's second sends counted.
   */
  ask?: number;
  /**
   * Look up a person's label of the answer (runs that grade): the row's references
   * and rubric; the site and the question are the fields above. Absent: no lookup.
   */
  label?: LabelLookup;
}

/** What `ask` returns; its `latencyMs` runs from submit to the answer being seen (includes polling granularity). */
export interface AskResult extends AnswerRecord {
  /**
   * Set when the service itself reported the request failed: a `failed` status, or a sync chat's 5xx with the API's
   * JSON error. Its `error` string ('' when it gave none): what decides whether the row is re-asked
   * (src/api/failureRules.ts, `isTransientFailure`). Absent for every other outcome, a time-out or a lost request.
   */
  serviceError?: string;
  /** The answer's label key, when the input asked for a lookup and an answer came. */
  labelKey?: string;
  /** The label of that key, when a person gave one: the row is settled by it. */
  label?: LabelMatch;
}

/** Recorded by the submitting activity as soon as the API accepted the question. */
export interface AskHeartbeat {
  requestId: string;
  sessionId: string;
  submittedAtMs: number;
  /** When the request was last seen still open (set by the heartbeats of a slow answer). */
  seenOpenAtMs?: number;
  /** While the activity waits out a results-store outage in place: the store's error (shown by `sitechat run`). */
  storeUnavailable?: string;
}

/** A row of a page, with the answer an earlier attempt of a resumed run recorded for it. */
export interface PlannedRow extends DatasetRow {
  prior?: { outcome: RowResult['outcome']; sessionId?: string };
}

export interface PlannedUnit extends WorkUnit {
  rows: PlannedRow[];
}

export interface PlanInfo {
  rows: number;
  units: number;
  pages: number;
  /** The run's API: the one it was started with, else this worker's (`RunOptions.api`). */
  api?: string;
}

/** What follows an answer (`settle`): its feedback, and closing the session after a conversation's last turn. */
export interface SettleInput {
  siteId: string;
  feedback?: { sessionId: string; requestId: string; value: 'good' | 'bad' };
  closeSessionId?: string;
}

/** A call the API answered for good: done, or refused with its status and `error` string. */
export type CallOutcome = SettledCall;

export interface SettleResult {
  feedback?: CallOutcome;
  close?: CallOutcome;
  /** The close failed in a way a retry may fix, after the feedback was sent: close in an activity of its own. */
  closeAgain?: boolean;
}

/** A finished row to record, with what follows it on the API: its feedback, and its session's close. */
export interface SettleItem {
  result: RowResult;
  feedback?: SettleInput['feedback'];
  closeSessionId?: string;
}

/** A batch of finished rows to settle and record (`settleRows`). */
export interface SettleRowsInput {
  runId: string;
  /** The plan page the rows come from: their metadata is read from it. */
  page: number;
  siteId: string;
  items: SettleItem[];
  /**
   * The batch's settle ran past its deadline, for this reason: make no call, record the rows with what the store's
   * marks say was done and the rest as failed.
   */
  gaveUp?: string;
}

/** What became of each item's feedback and close (absent when it had none), in the order of the items. */
export interface SettleRowsResult {
  items: { feedback?: CallOutcome; close?: CallOutcome }[];
}

export interface CloseSessionsResult {
  closed: number;
  failed: { sessionId: string; error: string }[];
}

export interface SkipPagesInput {
  runId: string;
  fromPage: number;
  toPage: number;
  reason: string;
  /** `skipped` after a cancel, `error` when a fatal API error stopped the run. */
  outcome: 'skipped' | 'error';
  /** The stop's error class, HTTP status and API `error` string, recorded on each row. @default none (a cancel) */
  facts?: Pick<RowResult, 'errorType' | 'errorStatus' | 'apiError'>;
  resume?: boolean;
}

export interface FinalizeInput {
  runId: string;
  input: RunInput;
  workflowId: string;
  /** Sessions the chunks closed; opened is counted from the recorded rows. */
  sessionsClosed: number;
  /** Sessions the chunks could not close (each recorded with its reason in the results store). @default 0 */
  sessionsCloseFailed?: number;
  cancelled: boolean;
  /** Why the run stopped before asking every row (a fatal error, or its first asks' refusal), for the summary. */
  stopped?: string;
}

export interface CustomGradeInput {
  /** The row as the workflow has it (without metadata), and where its metadata is: graders see the whole row. */
  row: DatasetRow;
  source?: { runId: string; page: number };
  answer: { answer: string; confidenceScore?: number; latencyMs?: number };
  modules: { module: string; threshold?: number }[];
}

export type { OutcomeCounts };

/**
 * `planConfirmationRound`: the run, the first page after the plan's own (its page count: where the rounds' pages
 * start) and the page this round takes.
 */
export interface ConfirmRoundInput {
  runId: string;
  input: RunInput;
  firstPage: number;
  page: number;
}

/** The page of regressed rows to ask again (`--confirm`): its number, the rows and the questions it holds. */
export interface ConfirmPlan {
  page: number;
  rows: number;
  questions: number;
}

/** What became of a labelled row's feedback (`labelFeedback` workflow). */
export interface RecordLabelFeedbackInput {
  runId: string;
  rowId: string;
  feedback: 'good' | 'bad' | 'failed';
  feedbackError?: string;
}
