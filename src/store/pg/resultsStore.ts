import type { QueryResultRow } from 'pg';
import type { Label, LabelFilter } from '../../domain/label';
import type { NotifyOutcome } from '../../domain/notify';
import { PgLabelStore } from './labelStore';
import { PgDatabase, StoreDatabaseError, type PgDatabaseOptions } from './database';
import { assertValidMeta, assertValidRow, assertValidSessionFailure, assertValidSettleMark, assertValidSubmission, newestFirst, type ResultsStore, type RunFilter } from '../store';
import type { RowResult, RunMeta, RunSummary, SessionCloseFailure, SettleMark, Submission } from '../../domain/results';

/** Rows per statement of `append`, and per page of the keyset reads: a few MB at most of either. */
const BATCH = 500;

/** PostgreSQL's SQLSTATE for a foreign-key violation: a row for a run that `init` never recorded. */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Results store on PostgreSQL (`SITECHAT_STORE_URL=postgres://…`), for workers on several hosts without a shared
 * filesystem. Same contract as `FileResultsStore`: rows are upserted by (run, row id), the last write wins, and every
 * read is a keyset-paginated stream in dataset order, so memory stays bounded at any run size. The schema is created
 * on first use (`schema.ts`).
 */
export class PgResultsStore implements ResultsStore {
  private readonly labels: PgLabelStore;

  /** @param db the pool; `PgResultsStore.open(url)` makes one. Shared with `PgPlanStore`. */
  constructor(readonly db: PgDatabase) {
    this.labels = new PgLabelStore(db);
  }

  static open(url: string, options?: PgDatabaseOptions): PgResultsStore {
    return new PgResultsStore(new PgDatabase(url, options));
  }

  async init(runId: string, meta: RunMeta): Promise<void> {
    assertValidMeta(meta);
    if (meta.runId !== runId) throw new TypeError(`run meta: \`runId\` ${meta.runId} does not match ${runId}`);
    await this.db.query(
      `INSERT INTO runs (run_id, meta, kind, dataset, dataset_sha256, site_id, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (run_id) DO NOTHING`,
      [runId, JSON.stringify(meta), meta.kind, meta.dataset, meta.datasetSha256, meta.siteId, meta.startedAt, meta.finishedAt ?? null],
    );
  }

  async append(runId: string, results: readonly RowResult[]): Promise<void> {
    results.forEach((row, i) => assertValidRow(row, i));
    // One statement may not update a row twice: within a batch, too, the last write of an id wins.
    const latest = [...new Map(results.map((row) => [row.id, row])).values()];
    for (let i = 0; i < latest.length; i += BATCH) {
      const chunk = latest.slice(i, i + BATCH);
      await this.forRun(runId, () => this.db.query(
        `INSERT INTO run_rows (run_id, row_id, idx, data)
         SELECT $1, r.id, r.idx, r.data::json FROM unnest($2::text[], $3::integer[], $4::text[]) AS r (id, idx, data)
         ON CONFLICT (run_id, row_id) DO UPDATE SET idx = EXCLUDED.idx, data = EXCLUDED.data`,
        [runId, chunk.map((r) => r.id), chunk.map((r) => r.index), chunk.map((r) => JSON.stringify(r))],
      ));
    }
  }

  async *read(runId: string): AsyncGenerator<RowResult> {
    let after: [number, string] = [-1, ''];
    for (;;) {
      const { rows } = await this.db.query<{ row_id: string; idx: number; data: RowResult }>(
        `SELECT row_id, idx, data FROM run_rows WHERE run_id = $1 AND (idx, row_id) > ($2, $3) ORDER BY idx, row_id LIMIT $4`,
        [runId, after[0], after[1], BATCH],
      );
      for (const row of rows) yield row.data;
      const last = rows.at(-1);
      if (last === undefined || rows.length < BATCH) return;
      after = [last.idx, last.row_id];
    }
  }

  async getRow(runId: string, rowId: string): Promise<RowResult | undefined> {
    const { rows } = await this.db.query<{ data: RowResult }>('SELECT data FROM run_rows WHERE run_id = $1 AND row_id = $2', [runId, rowId]);
    return rows[0]?.data;
  }

  async getMeta(runId: string): Promise<RunMeta | undefined> {
    const { rows } = await this.db.query<{ meta: RunMeta }>('SELECT meta FROM runs WHERE run_id = $1', [runId]);
    return rows[0]?.meta;
  }

  async getSummary(runId: string): Promise<RunSummary | undefined> {
    const { rows } = await this.db.query<{ summary: RunSummary | null }>('SELECT summary FROM runs WHERE run_id = $1', [runId]);
    return rows[0]?.summary ?? undefined;
  }

  async finish(runId: string, summary: RunSummary): Promise<void> {
    await this.db.transaction(async (client) => {
      const { rows } = await client.query<{ meta: RunMeta }>('SELECT meta FROM runs WHERE run_id = $1 FOR UPDATE', [runId]);
      const meta = rows[0]?.meta;
      if (meta === undefined) throw notInitialised(runId);
      const finished: RunMeta = { ...meta, finishedAt: summary.finishedAt ?? new Date().toISOString() };
      await client.query('UPDATE runs SET meta = $2, summary = $3, finished_at = $4 WHERE run_id = $1', [
        runId, JSON.stringify(finished), JSON.stringify(summary), finished.finishedAt,
      ]);
    });
  }

  async listRuns(filter: RunFilter = {}): Promise<RunMeta[]> {
    const { rows } = await this.db.query<{ meta: RunMeta }>(
      `SELECT meta FROM runs
       WHERE ($1::text IS NULL OR dataset = $1 OR dataset_sha256 = $1) AND ($2::text IS NULL OR site_id = $2)
         AND ($3::text IS NULL OR kind = $3) AND ($4::boolean IS NULL OR (finished_at IS NOT NULL) = $4)`,
      [filter.dataset ?? null, filter.siteId ?? null, filter.kind ?? null, filter.finished ?? null],
    );
    return rows.map((r) => r.meta).sort(newestFirst);
  }

  async recordSessionFailures(runId: string, failures: readonly SessionCloseFailure[]): Promise<void> {
    failures.forEach((item, i) => assertValidSessionFailure(item, i));
    const latest = [...new Map(failures.map((f) => [f.sessionId, f.error])).entries()];
    if (latest.length === 0) return;
    await this.forRun(runId, () => this.db.query(
      `INSERT INTO session_failures (run_id, session_id, error) SELECT $1, f.id, f.error FROM unnest($2::text[], $3::text[]) AS f (id, error)
       ON CONFLICT (run_id, session_id) DO UPDATE SET error = EXCLUDED.error`,
      [runId, latest.map(([id]) => id), latest.map(([, error]) => error)],
    ));
  }

  async *readSessionFailures(runId: string): AsyncGenerator<SessionCloseFailure> {
    for await (const row of this.pagesBySeq<{ session_id: string; error: string }>('session_id, error', 'session_failures', runId)) {
      yield { sessionId: row.session_id, error: row.error };
    }
  }

  async recordSubmission(runId: string, submission: Submission): Promise<void> {
    assertValidSubmission(submission);
    await this.forRun(runId, () => this.db.query(
      `INSERT INTO submissions (run_id, row_id, data) VALUES ($1, $2, $3) ON CONFLICT (run_id, row_id) DO UPDATE SET data = EXCLUDED.data`,
      [runId, submission.rowId, JSON.stringify(submission)],
    ));
  }

  async getSubmission(runId: string, rowId: string): Promise<Submission | undefined> {
    const { rows } = await this.db.query<{ data: Submission }>('SELECT data FROM submissions WHERE run_id = $1 AND row_id = $2', [runId, rowId]);
    return rows[0]?.data;
  }

  async *readSubmissions(runId: string): AsyncGenerator<Submission> {
    for await (const row of this.pagesBySeq<{ data: Submission }>('data', 'submissions', runId)) yield row.data;
  }

  async recordSettled(runId: string, marks: readonly SettleMark[]): Promise<void> {
    marks.forEach((item, i) => assertValidSettleMark(item, i));
    const latest = [...new Map(marks.map((m) => [m.rowId, m])).values()];
    if (latest.length === 0) return;
    await this.forRun(runId, () => this.db.query(
      `INSERT INTO settled (run_id, row_id, data) SELECT $1, m.id, m.data::json FROM unnest($2::text[], $3::text[]) AS m (id, data)
       ON CONFLICT (run_id, row_id) DO UPDATE SET data = EXCLUDED.data`,
      [runId, latest.map((m) => m.rowId), latest.map((m) => JSON.stringify(m))],
    ));
  }

  async getSettled(runId: string, rowIds: readonly string[]): Promise<Map<string, SettleMark>> {
    if (rowIds.length === 0) return new Map();
    const { rows } = await this.db.query<{ data: SettleMark }>('SELECT data FROM settled WHERE run_id = $1 AND row_id = ANY($2::text[])', [runId, [...rowIds]]);
    return new Map(rows.map((r) => [r.data.rowId, r.data]));
  }

  async recordNotifications(runId: string, outcomes: readonly NotifyOutcome[]): Promise<void> {
    await this.db.query(
      'INSERT INTO run_notifications (run_id, data) VALUES ($1, $2) ON CONFLICT (run_id) DO UPDATE SET data = EXCLUDED.data',
      [runId, JSON.stringify(outcomes)],
    );
  }

  async getNotifications(runId: string): Promise<NotifyOutcome[] | undefined> {
    const { rows } = await this.db.query<{ data: NotifyOutcome[] }>('SELECT data FROM run_notifications WHERE run_id = $1', [runId]);
    return rows[0]?.data;
  }

  putLabels(labels: readonly Label[]): Promise<void> {
    return this.labels.putLabels(labels);
  }

  getLabels(keys: readonly string[]): Promise<Map<string, Label>> {
    return this.labels.getLabels(keys);
  }

  readLabels(filter?: LabelFilter): AsyncIterable<Label> {
    return this.labels.readLabels(filter);
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.db.close();
  }

  /** A table's rows of one run in the order they were first recorded, a page at a time. */
  private async *pagesBySeq<R extends QueryResultRow>(columns: string, table: 'session_failures' | 'submissions', runId: string): AsyncGenerator<R & { seq: string }> {
    let after = '0';
    for (;;) {
      const { rows } = await this.db.query<R & { seq: string }>(
        `SELECT ${columns}, seq FROM ${table} WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [runId, after, BATCH],
      );
      yield* rows;
      const last = rows.at(-1);
      if (last === undefined || rows.length < BATCH) return;
      after = last.seq;
    }
  }

  /** Runs a write that references the run; a run `init` never recorded gives the file store's error. */
  private async forRun<T>(runId: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof StoreDatabaseError && err.code === FOREIGN_KEY_VIOLATION) throw notInitialised(runId);
      throw err;
    }
  }
}

function notInitialised(runId: string): Error {
  return new Error(`results store: run ${runId} was not initialised (no row in \`runs\`)`);
}
