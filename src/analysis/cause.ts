/**
 * The cause of a run's errors, in one wording for the terminal and every report: "the API refused the key (401
 * invalid_api_key): check SITECHAT_API_KEY". When most errors of a run share one cause, the summary (`cause`), the
 * terminal and every report lead with it instead of leaving it to be read off 66 identical rows.
 */
import { errorTypeForStatus, hintFor } from '../api/httpErrors';
import { plural } from '../shared/plural';
import { Outcome, type RowResult, type RunCause } from '../domain/results';

/** What went wrong with a row, as far as it can be grouped: its error's class, and what the API said. */
export interface ErrorCause {
  /** The error's class: `AuthenticationError`, `RequestFailed` (the service failed the request), `TimedOut` … */
  type: string;
  /** The HTTP status the API answered with. */
  status?: number;
  /** The API's `error` string, or a failed request's. */
  error?: string;
}

/** The type of a row that errored without one recorded, and of every row that timed out. */
export const TIMED_OUT = 'TimedOut';
const UNKNOWN = 'Unknown';

/**
 * `401 invalid_api_key from GET /m2m/…`, as the API client words an HTTP failure (src/api/httpErrors.ts), anywhere in
 * a row's message: rows recorded before their status was (or "not sent: the run stopped on 401 …") still group.
 */
const HTTP_FAILURE = /\b([1-5]\d\d)(?: (.+?))? from (?:GET|POST|PUT|PATCH|DELETE) \//;

/** The cause of a row's error or time-out; undefined for a row that did not end in one. */
export function causeOfRow(row: Pick<RowResult, 'outcome' | 'error' | 'errorType' | 'errorStatus' | 'apiError'>): ErrorCause | undefined {
  if (row.outcome !== Outcome.error && row.outcome !== Outcome.timedOut) return undefined;
  if (row.outcome === Outcome.timedOut) return { type: row.errorType ?? TIMED_OUT };
  if (row.errorStatus !== undefined) return { type: row.errorType ?? errorTypeForStatus(row.errorStatus, row.apiError), status: row.errorStatus, error: row.apiError };
  const http = row.error === undefined ? null : HTTP_FAILURE.exec(row.error);
  if (http) {
    const status = Number(http[1]);
    const error = http[2];
    return { type: row.errorType ?? errorTypeForStatus(status, error), status, ...(error !== undefined && { error }) };
  }
  return { type: row.errorType ?? UNKNOWN, ...(row.apiError !== undefined && { error: row.apiError }) };
}

/** The type a row's error is counted under in `summary.errorsByType`; undefined for a row without error. */
export function errorTypeOf(row: Pick<RowResult, 'outcome' | 'error' | 'errorType' | 'errorStatus' | 'apiError'>): string | undefined {
  return causeOfRow(row)?.type;
}

/** Rows of one cause share this key. */
export function causeKey(c: ErrorCause): string {
  return `${c.type}\u0000${c.status ?? ''}\u0000${c.error ?? ''}`;
}

/** Words for the causes that are not an HTTP status: what happened, and what to do. */
const BY_TYPE: Readonly<Record<string, { what: string; next: string }>> = {
  RequestFailed: { what: 'the service failed the request', next: 'the failure is on its side: try again later, or tell its operator if it persists' },
  [TIMED_OUT]: { what: 'no answer came in time', next: 'raise --answer-timeout, or check how loaded the service is' },
  APIConnectionError: { what: 'the API could not be reached', next: 'check SITECHAT_BASE_URL and that the service is running and reachable' },
  APIConnectionTimeoutError: { what: 'the API did not answer in time', next: 'check that the service is reachable from the worker, or raise the client timeout' },
};

/**
 * The cause in words, with the status and the API's `error` string in brackets and what to do after the colon:
 * "the API refused the key (401 invalid_api_key): check SITECHAT_API_KEY". `example` (a row's message) stands in for
 * the words of a cause this table does not know.
 */
export function causeText(c: ErrorCause, example?: string): string {
  if (c.status !== undefined) {
    const hint = hintFor(c.status, c.error);
    return `${hint.short ?? hint.what} (${c.status}${c.error === undefined ? '' : ` ${c.error}`}): ${hint.next}`;
  }
  const known = BY_TYPE[c.type];
  if (known) return `${known.what} (${c.error ?? c.type}): ${known.next}`;
  const said = c.error ?? example;
  return said === undefined ? c.type : `${c.type}: ${said}`;
}

/** "66 of 66 errored rows: the API refused the key (…)": the cause line the reports and the terminal lead with. */
export function causeLine(c: RunCause): string {
  return `${c.rows} of ${plural(c.errors, 'errored row')}: ${c.text}`;
}
