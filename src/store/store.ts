import type { WorkPlanInfo, WorkPlanOptions } from '../datasets/plan';
import type { WorkUnit } from '../domain/dataset';
import type { Label, LabelFilter } from '../domain/label';
import type { NotifyKind, NotifyOutcome } from '../domain/notify';
import { Outcome, RunKind, type RowResult, type RunMeta, type RunSummary, type SessionCloseFailure, type SettleMark, type Submission } from '../domain/results';

/** Which runs `ResultsStore.listRuns` returns; every given field must match. */
export interface RunFilter {
  /** Matches `RunMeta.dataset` or `RunMeta.datasetSha256`. */
  dataset?: string;
  siteId?: string;
  kind?: RunKind;
  /** true: only runs with `finishedAt`; false: only runs in progress. */
  finished?: boolean;
}

/** A run's record: its meta, and its summary once finished. */
export interface RunStore {
  /** Records the run. Idempotent: when the run exists already, its meta is kept as it is. */
  init(runId: string, meta: RunMeta): Promise<void>;
  /** The run's meta, or undefined when there is no such run. */
  getMeta(runId: string): Promise<RunMeta | undefined>;
  /** The summary given to `finish`, or undefined while the run is not finished. */
  getSummary(runId: string): Promise<RunSummary | undefined>;
  /** Stores the summary and marks the run finished (`finishedAt`). Calling it again replaces both. */
  finish(runId: string, summary: RunSummary): Promise<void>;
  /** Runs matching the filter, newest first (by `startedAt`). */
  listRuns(filter?: RunFilter): Promise<RunMeta[]>;
}

/** The rows' results: one per row id, the last write of an id wins. */
export interface RowStore {
  /**
   * Records a batch. Idempotent by row id: a retried batch, an overlapping batch or a replayed
   * workflow never duplicates a row. When the same id is written twice, the **last write wins**
   * (a retry carries the same or a newer result of the same row).
   */
  append(runId: string, results: readonly RowResult[]): Promise<void>;
  /** One result per row id, in dataset order (`index`, then `id`). Memory stays bounded. */
  read(runId: string): AsyncIterable<RowResult>;
  /** The result of `rowId` as written last, or undefined when the run has no such row. */
  getRow(runId: string, rowId: string): Promise<RowResult | undefined>;
}

/**
 * What is known about sending each row's question, kept outside Temporal's heartbeat so that a retry after a lost
 * heartbeat resumes polling instead of asking again.
 */
export interface SubmissionStore {
  /**
   * Records what is known about sending a row's question: written before each send and when the API accepted it.
   * Keyed by row id, the last write wins; durable when the promise resolves (a worker may die right after).
   */
  recordSubmission(runId: string, submission: Submission): Promise<void>;
  /** The last record of `rowId`, or undefined when its question was never sent. */
  getSubmission(runId: string, rowId: string): Promise<Submission | undefined>;
  /** The last record of every row sent, in no particular order. Streams; memory bounded by the number of rows. */
  readSubmissions(runId: string): AsyncIterable<Submission>;
}

/** What the rows' settles did on the API: feedback sent, sessions closed, and the sessions that could not be. */
export interface SettleStore {
  /**
   * Records what the settles of rows have done on the API (feedback sent, session closed). Keyed by row id, the last
   * write wins (a mark carries everything done for its row so far); durable when the promise resolves.
   */
  recordSettled(runId: string, marks: readonly SettleMark[]): Promise<void>;
  /** The last mark of each of `rowIds` that has one. */
  getSettled(runId: string, rowIds: readonly string[]): Promise<Map<string, SettleMark>>;
  /**
   * Records sessions the run could not close, with the reason. Idempotent by session id: a retried batch never
   * duplicates one; the last reason recorded wins.
   */
  recordSessionFailures(runId: string, failures: readonly SessionCloseFailure[]): Promise<void>;
  /** The sessions recorded by `recordSessionFailures`, one per session id. Streams; memory bounded by their number. */
  readSessionFailures(runId: string): AsyncIterable<SessionCloseFailure>;
}

/** What became of the notifications sent when a run ended, as its reports show them. */
export interface NotificationStore {
  /**
   * Records what became of the notifications sent when the run ended, replacing an earlier record: its reports
   * show them whenever they are rendered again. Needs no `init`: a multi-site run records under its own id.
   */
  recordNotifications(runId: string, outcomes: readonly NotifyOutcome[]): Promise<void>;
  /** The outcomes last recorded for the run, or undefined when it notified nobody. */
  getNotifications(runId: string): Promise<NotifyOutcome[] | undefined>;
}

/** A site's labels (`sitechat review`, `sitechat labels import`): not tied to a run. */
export interface LabelStore {
  /** Records labels. Idempotent by `key`: the last write of a key wins (a person corrected their label). */
  putLabels(labels: readonly Label[]): Promise<void>;
  /** The labels of these keys that exist (absent keys are not in the map). */
  getLabels(keys: readonly string[]): Promise<Map<string, Label>>;
  /** Every label matching the filter, ordered by key. Streams; memory bounded by the page size. */
  readLabels(filter?: LabelFilter): AsyncIterable<Label>;
}

/**
 * Where results live between the activities that record them and the report that reads them: a run's record, its
 * rows, what was sent and settled, its notifications, and the site's labels. Activities run on any worker, so a
 * cluster needs a shared implementation (PostgreSQL, `PgResultsStore`); `FileResultsStore` is the single-machine
 * default. Both pass the same contract tests (test/helpers/storeContract.ts). Workflows never see the store, only
 * activities. `openStore` (open.ts) gives it with the run's plans (`PlanStore`) and the notification ledger.
 */
export interface ResultsStore extends RunStore, RowStore, SubmissionStore, SettleStore, NotificationStore, LabelStore {}

/**
 * Where a run's work plan lives between `prepareRun` and the chunks that read its pages. Activities run on any
 * worker: the file implementation (`FilePlanStore`) needs every worker to see the same runs directory; the PostgreSQL
 * one (`PgPlanStore`) keeps the pages in the results database, so workers share nothing but it.
 */
export interface PlanStore {
  /**
   * Validates the dataset in one streaming pass and stores the run's paged plan. Repeatable: a retry rebuilds the
   * same plan over the old one.
   */
  build(runId: string, datasetPath: string, options: WorkPlanOptions): Promise<WorkPlanInfo>;
  /** One page (0-based) of the run's plan; a `RangeError` for a page the plan does not have. */
  readPage(runId: string, page: number): Promise<WorkUnit[]>;
  /**
   * Stores a page after the plan's own ones (`page` ≥ its page count), e.g. the rows `--confirm` asks again.
   * Repeatable: writing the same page again replaces it.
   */
  writeExtraPage(runId: string, page: number, units: WorkUnit[]): Promise<void>;
  /**
   * Makes a dataset file the run is started with readable by every worker that may prepare the run (the workers
   * then find it by its sha256 when its path does not exist on their host). Repeatable.
   */
  shareDataset(datasetPath: string, sha256: string): Promise<void>;
}

/** One notification as the ledger knows it. */
export interface DeliveryRecord {
  deliveryId: string;
  /** `slack (SITECHAT_SLACK_WEBHOOK)`: names only. */
  destination: string;
  kind: NotifyKind;
  /** `sending`: a send began and its answer is not known; `delivered`: 2xx; `failed`: refused, or out of attempts. */
  status: 'sending' | 'delivered' | 'failed';
  /** Sends begun so far (each may have reached the receiver). */
  sends: number;
  error?: string;
  updatedAt: string;
}

/**
 * What the runner knows about each notification it sent, by delivery id, kept in the results store's place (the
 * runs directory, or the PostgreSQL store) so every worker sees it. The notify activity writes `sending` before a
 * send and `delivered` right after the receiver's 2xx, before it returns: a retried activity (another attempt, or
 * another worker after a crash) that finds `delivered` does not send again. Only a crash between the 2xx and that
 * write re-sends, with the same delivery id (docs/notifications.md, "Guarantees").
 */
export interface NotificationLedger {
  get(deliveryId: string): Promise<DeliveryRecord | undefined>;
  /** Durable when the promise resolves: the worker may die right after. */
  put(record: DeliveryRecord): Promise<void>;
}

const DELIVERY_ID = /^[A-Za-z0-9_-]{1,100}$/u;

/** Throws when a delivery id could not be a file name or key of the ledger. */
export function assertValidDeliveryId(id: string): void {
  if (!DELIVERY_ID.test(id)) throw new Error(`notification ledger: invalid delivery id ${JSON.stringify(id)}`);
}

const outcomes = new Set<string>(Object.values(Outcome));
const kinds = new Set<string>(Object.values(RunKind));

/** Throws a field-qualified error when a result cannot be stored (it would break dedupe or order). */
export function assertValidRow(row: RowResult, position: number): void {
  const where = `results batch item ${position}`;
  if (typeof row.id !== 'string' || row.id === '') throw new TypeError(`${where}: \`id\` must be a non-empty string`);
  if (!Number.isInteger(row.index) || row.index < 0) {
    throw new TypeError(`${where} (id ${row.id}): \`index\` must be a non-negative integer`);
  }
  if (!outcomes.has(row.outcome)) {
    throw new TypeError(`${where} (id ${row.id}): \`outcome\` must be one of ${[...outcomes].join(', ')}`);
  }
}

/** Throws a field-qualified error when a session failure cannot be stored. */
export function assertValidSessionFailure(item: SessionCloseFailure, position: number): void {
  if (typeof item.sessionId !== 'string' || item.sessionId === '') {
    throw new TypeError(`session failures item ${position}: \`sessionId\` must be a non-empty string`);
  }
  if (typeof item.error !== 'string') throw new TypeError(`session failures item ${position} (session ${item.sessionId}): \`error\` must be a string`);
}

/** Throws a field-qualified error when a submission record cannot be stored. */
export function assertValidSubmission(item: Submission): void {
  if (typeof item.rowId !== 'string' || item.rowId === '') throw new TypeError('submission: `rowId` must be a non-empty string');
  if (!Number.isInteger(item.sends) || item.sends < 0) throw new TypeError(`submission (row ${item.rowId}): \`sends\` must be a non-negative integer`);
}

/** Throws a field-qualified error when a settle mark cannot be stored. */
export function assertValidSettleMark(item: SettleMark, position: number): void {
  if (typeof item.rowId !== 'string' || item.rowId === '') throw new TypeError(`settle marks item ${position}: \`rowId\` must be a non-empty string`);
}

/** Throws a field-qualified error when run meta is incomplete. */
export function assertValidMeta(meta: RunMeta): void {
  for (const field of ['runId', 'workflowId', 'dataset', 'datasetSha256', 'siteId', 'startedAt'] as const) {
    if (typeof meta[field] !== 'string' || meta[field] === '') {
      throw new TypeError(`run meta: \`${field}\` must be a non-empty string`);
    }
  }
  if (!kinds.has(meta.kind)) throw new TypeError(`run meta: \`kind\` must be one of ${[...kinds].join(', ')}`);
}

/**
 * Why a summary read back from a file is not one, or undefined: the fields every listing reads (counts, pass rate,
 * times) checked, so one hand-edited file cannot break `sitechat runs` or history.html with a `TypeError`.
 */
export function summaryShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `a JSON ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}, not an object`;
  const s = value as Record<string, unknown>;
  for (const field of ['total', 'error', 'timedOut'] as const) if (typeof s[field] !== 'number') return `\`${field}\` is not a number`;
  if (s.passRate !== null && typeof s.passRate !== 'number') return '`passRate` is neither a number nor null';
  for (const field of ['startedAt', 'finishedAt'] as const) if (s[field] !== undefined && s[field] !== null && typeof s[field] !== 'string') return `\`${field}\` is not a string`;
  return undefined;
}

/** True when `meta` matches every field of `filter`. */
export function matchesFilter(meta: RunMeta, filter: RunFilter = {}): boolean {
  if (filter.dataset !== undefined && filter.dataset !== meta.dataset && filter.dataset !== meta.datasetSha256) {
    return false;
  }
  if (filter.siteId !== undefined && filter.siteId !== meta.siteId) return false;
  if (filter.kind !== undefined && filter.kind !== meta.kind) return false;
  if (filter.finished !== undefined && filter.finished !== (meta.finishedAt !== undefined)) return false;
  return true;
}

/** Newest first by `startedAt`, then by run id. */
export function newestFirst(a: RunMeta, b: RunMeta): number {
  return Date.parse(b.startedAt) - Date.parse(a.startedAt) || b.runId.localeCompare(a.runId);
}
