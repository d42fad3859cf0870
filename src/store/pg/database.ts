/**
 * The connection pool of the PostgreSQL results store. The store URL may carry a password: it is held in a `Secret`,
 * shown only as `location` (password replaced), and scrubbed from the text of every error that leaves this module.
 */
import { DatabaseError, Pool, type PoolClient, type QueryResult, type QueryResultRow } from 'pg';
import { Secret } from '../../api/secret';
import { shownUrl } from '../../api/shownUrl';
import { migrate } from './schema';
import { isTransientStoreError, StoreDatabaseError, StoreUnavailableError } from '../errors';

/** URL schemes that select the PostgreSQL store in `SITECHAT_STORE_URL`. */
export const PG_SCHEMES = ['postgres:', 'postgresql:'] as const;

export interface PgDatabaseOptions {
  /** Connections in the pool: activities of one worker share them. @default 4 */
  max?: number;
}

export { StoreDatabaseError, StoreUnavailableError } from '../errors';

/** Throws a `TypeError` naming the variable when `url` is no PostgreSQL URL; never echoes the URL (it may hold a password). */
export function parseStoreUrl(url: string, variable = 'SITECHAT_STORE_URL'): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${variable} is not a URL: give postgres://user:password@host:5432/database`);
  }
  if (!(PG_SCHEMES as readonly string[]).includes(parsed.protocol)) {
    throw new TypeError(`${variable} must start with postgres:// or postgresql://, got ${parsed.protocol}//…`);
  }
  return parsed;
}

/** The URL as it may be shown (`shownUrl`): host, port and database; user, password and query replaced. */
export function redactStoreUrl(url: string): string {
  parseStoreUrl(url);
  return shownUrl(url);
}

/** How long a new connection may take before the store counts as unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

export class PgDatabase {
  readonly #url: Secret;
  readonly #password: Secret;
  /** A hard-private field: the pool's options hold the URL, and nothing may print them (inspect, JSON). */
  readonly #pool: Pool;
  private migrated?: Promise<void>;
  /** The URL without its password, for messages. */
  readonly location: string;

  constructor(url: string, options: PgDatabaseOptions = {}) {
    const parsed = parseStoreUrl(url);
    this.#url = new Secret(url);
    this.#password = new Secret(decodeURIComponent(parsed.password));
    this.location = redactStoreUrl(url);
    this.#pool = new Pool({
      connectionString: this.#url.reveal(), max: options.max ?? 4, idleTimeoutMillis: 10_000, allowExitOnIdle: true,
      // A host that drops packets would leave a connect hanging for the kernel's minutes: fail it as unreachable.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle connection dropped by the server must not crash the process: the next query reconnects or fails.
    this.#pool.on('error', () => undefined);
  }

  /** Creates or upgrades the schema on first use, once per process (migrations are locked across processes). */
  ready(): Promise<void> {
    this.migrated ??= this.withClient(async (client) => {
      await migrate(client);
    }).catch((err: unknown) => {
      this.migrated = undefined;
      throw err;
    });
    return this.migrated;
  }

  async query<R extends QueryResultRow>(text: string, values: unknown[] = []): Promise<QueryResult<R>> {
    await this.ready();
    return this.scrubbed(() => this.#pool.query<R>(text, values));
  }

  /** Runs `fn` in one transaction on one connection; rolls back when it throws. */
  async transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    await this.ready();
    return this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  /** A connection of its own (e.g. for a long read); released when `fn` settles. */
  async withClient<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.scrubbed(async () => {
      const client = await this.#pool.connect();
      try {
        return await fn(client);
      } finally {
        client.release();
      }
    });
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  /**
   * Errors of the server or the connection become a `StoreDatabaseError` naming the store, a `StoreUnavailableError`
   * when the database cannot be reached for now; any other error (the callers' own, e.g. `DatasetChangedError` thrown
   * inside a transaction) keeps its class. Every text is scrubbed.
   */
  private async scrubbed<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof Error) || err instanceof StoreDatabaseError) throw err;
      const scrub = (text: string): string => this.#password.scrub(this.#url.scrub(text));
      const code = (err as { code?: unknown }).code;
      const sqlstate = typeof code === 'string' ? code : undefined;
      const message = `results store (${this.location}): ${scrub(err.message)}`;
      if (isTransientStoreError(err)) throw new StoreUnavailableError(message, sqlstate);
      if (err instanceof DatabaseError || typeof (err as { syscall?: unknown }).syscall === 'string' || /connection|timeout/iu.test(err.message)) {
        throw new StoreDatabaseError(message, sqlstate);
      }
      err.message = scrub(err.message);
      if (err.stack) err.stack = scrub(err.stack);
      throw err;
    }
  }
}
