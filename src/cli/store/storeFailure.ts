import { StoreDatabaseError, StoreUnavailableError } from '../../store/errors';

/**
 * SQLSTATEs of a connection the database refused: wrong password or user (28P01, 28000), no such database (3D000).
 * Like an unreachable server, they are the store's settings or the database's state, not the command's input.
 */
const REFUSED_CONNECTION = new Set(['28P01', '28000', '3D000']);

/** True for an error that says the results store could not be reached or would not let this process in. */
export function isStoreConnectFailure(err: unknown): err is StoreDatabaseError {
  if (!(err instanceof StoreDatabaseError)) return false;
  // Without a SQLSTATE it is the socket's or the driver's error: no statement got as far as the server.
  return err instanceof StoreUnavailableError || err.code === undefined || REFUSED_CONNECTION.has(err.code);
}

/** The message of a store that cannot be connected to, with what to check (the URL itself is never shown: it may hold a password). */
export function storeFailureMessage(err: StoreDatabaseError): string {
  return `${err.message}. Check that the PostgreSQL server is running and reachable from this host, and the host, port, ` +
    'database, user and password in SITECHAT_STORE_URL (or unset it to keep results in files under SITECHAT_RUNS_DIR)';
}
