/**
 * Errors of the results store. A store that cannot be reached (server down, restarting, connection dropped,
 * too many connections) is a transient fault: activities wait it out (`activities/storeOutage.ts`). Every other
 * store error is the caller's or the data's and keeps its own class.
 */

/** A database error with its text scrubbed of the store URL's password; `code` is PostgreSQL's SQLSTATE. */
export class StoreDatabaseError extends Error {
  override name = 'StoreDatabaseError';
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

/**
 * A file of one run in the directory store that does not read as what it should be (a disk that filled up mid-write
 * elsewhere, a hand edit): it names the file, so a listing can leave that run out and say which file to look at.
 */
export class CorruptRunFileError extends Error {
  override name = 'CorruptRunFileError';
  constructor(readonly path: string, readonly runId: string, why: string) {
    super(`${path} ${why}`);
  }
}

/** The results store could not be reached or dropped the connection; trying again later may succeed. */
export class StoreUnavailableError extends StoreDatabaseError {
  override name = 'StoreUnavailableError';
}

/**
 * SQLSTATEs that say "the server is not there right now", not "this statement is wrong": class 08 (connection
 * exception), admin/crash shutdown and "cannot connect now" (57P01–57P03, a server starting or stopping), too many
 * connections (53300), and a serialization failure or deadlock (40001, 40P01), which the same statement survives
 * when tried again.
 */
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01']);

/** Socket errors of a connection that could not be made or was cut. */
const TRANSIENT_SYSCALL_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * node-postgres reports a connection lost mid-query, a connect time-out and a client broken by an earlier
 * connection error with these messages and no code.
 */
const TRANSIENT_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|the database system is (starting up|shutting down|in recovery mode)/iu;

/** True when `err` (a pg or socket error) says the database is unreachable for now. */
export function isTransientStoreError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SYSCALL_CODES.has(code))) return true;
  return TRANSIENT_MESSAGES.test(err.message);
}

/**
 * The heartbeat-details field naming the store error an activity waits out in place (`withStoreRetry`): such a wait
 * fails no attempt, so `sitechat run` finds it in the pending activity's heartbeat details instead of its last failure.
 */
export const STORE_WAIT_FIELD = 'storeUnavailable';
export type StoreWait = { [STORE_WAIT_FIELD]: string };
