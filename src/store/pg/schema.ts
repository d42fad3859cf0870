/**
 * Versioned schema of the PostgreSQL results store. Migrations are applied in order, once, in one transaction held
 * under an advisory lock, so workers that start together do not race; each applied version is a row of
 * `schema_migrations`. Never edit a released migration: append a new one.
 */
import type { PoolClient } from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, rows, session failures, submissions',
    // `json` (not jsonb) keeps a row's text as written, so report files match the file store's byte for byte.
    // Ids are compared bytewise (COLLATE "C"): the dataset order of `read` must not depend on the server's locale.
    sql: `
      CREATE TABLE runs (
        run_id text COLLATE "C" PRIMARY KEY,
        meta json NOT NULL,
        summary json,
        kind text NOT NULL,
        dataset text NOT NULL,
        dataset_sha256 text NOT NULL,
        site_id text NOT NULL,
        started_at text NOT NULL,
        finished_at text
      );
      CREATE TABLE run_rows (
        run_id text COLLATE "C" NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        row_id text COLLATE "C" NOT NULL,
        idx integer NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (run_id, row_id)
      );
      CREATE INDEX run_rows_order ON run_rows (run_id, idx, row_id);
      CREATE TABLE session_failures (
        run_id text COLLATE "C" NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        session_id text COLLATE "C" NOT NULL,
        error text NOT NULL,
        seq bigserial NOT NULL,
        PRIMARY KEY (run_id, session_id)
      );
      CREATE TABLE submissions (
        run_id text COLLATE "C" NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        row_id text COLLATE "C" NOT NULL,
        data json NOT NULL,
        seq bigserial NOT NULL,
        PRIMARY KEY (run_id, row_id)
      );`,
  },
  {
    version: 2,
    name: 'work plans and uploaded datasets',
    // A plan is written before its run exists in `runs` (prepareRun validates the dataset first): no foreign key.
    sql: `
      CREATE TABLE plans (
        run_id text COLLATE "C" PRIMARY KEY,
        info json NOT NULL
      );
      CREATE TABLE plan_pages (
        run_id text COLLATE "C" NOT NULL,
        page integer NOT NULL,
        units json NOT NULL,
        PRIMARY KEY (run_id, page)
      );
      CREATE TABLE datasets (
        sha256 text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        bytes bigint NOT NULL,
        chunks integer NOT NULL
      );
      CREATE TABLE dataset_chunks (
        sha256 text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (sha256, seq)
      );`,
  },
  {
    version: 3,
    name: 'labels',
    // Labels belong to a site, not a run: no foreign key to `runs` (an import may come before any run of the site).
    sql: `
      CREATE TABLE labels (
        key text COLLATE "C" PRIMARY KEY,
        site_id text COLLATE "C" NOT NULL,
        data json NOT NULL
      );
      CREATE INDEX labels_by_site ON labels (site_id, key);`,
  },
  {
    version: 4,
    name: 'notification deliveries',
    // Keyed by delivery id (one per run and destination), not by run: cleanups notify too and have no run row.
    sql: `
      CREATE TABLE notification_deliveries (
        delivery_id text COLLATE "C" PRIMARY KEY,
        data json NOT NULL
      );`,
  },
  {
    version: 5,
    name: 'settle marks',
    // What each row's settle did on the API (feedback, close), so a retried batch settle never sends it again.
    sql: `
      CREATE TABLE settled (
        run_id text COLLATE "C" NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        row_id text COLLATE "C" NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (run_id, row_id)
      );`,
  },
  {
    version: 6,
    name: 'run notifications',
    // The outcomes a run's reports show, rendered from here like the rest. No foreign key: a multi-site run records
    // under its own id, which has no row in `runs`.
    sql: `
      CREATE TABLE run_notifications (
        run_id text COLLATE "C" PRIMARY KEY,
        data json NOT NULL
      );`,
  },
];

/** Any fixed 64-bit number: the advisory lock every sitechat process takes while migrating. */
const MIGRATION_LOCK = 7_316_021_455;

/** Thrown when the database was migrated by a newer sitechat than this one. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

/** Applies the migrations `client`'s database lacks; returns the versions applied now. */
export async function migrate(client: PoolClient, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const known = Math.max(...migrations.map((m) => m.version));
    const newest = Math.max(0, ...applied);
    if (newest > known) {
      throw new SchemaTooNewError(`results store: the database schema is at version ${newest}, this sitechat knows up to ${known}; upgrade sitechat`);
    }
    const done: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      done.push(m.version);
    }
    await client.query('COMMIT');
    return done;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
