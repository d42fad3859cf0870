/**
 * Work plans and the datasets runs are started with, in the PostgreSQL results database: with it, workers on
 * different hosts need no shared filesystem at all. The plan is built in a scratch directory on the worker that
 * prepares the run (the same streaming builder as the file store), then stored one page per row.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatasetChangedError, DatasetFileError } from '../../datasets/issues';
import { buildWorkPlan, readWorkPage, type WorkPlanInfo, type WorkPlanOptions } from '../../datasets/plan';
import type { PlanStore } from '../store';
import type { WorkUnit } from '../../domain/dataset';
import type { PgDatabase } from './database';

/** Bytes per stored piece of a shared dataset: one bounded-size row each, whatever the file's size. */
const CHUNK_BYTES = 1 << 20;

export class PgPlanStore implements PlanStore {
  /**
   * @param db the results store's pool.
   * @param scratchDir where plans are built before they are stored, and shared datasets copied to. @default the OS temp dir
   */
  constructor(private readonly db: PgDatabase, private readonly scratchDir = tmpdir()) {}

  async build(runId: string, datasetPath: string, options: WorkPlanOptions): Promise<WorkPlanInfo> {
    const scratch = await mkdtemp(join(this.scratchDir, 'sitechat-plan-'));
    try {
      const source = await this.localDataset(datasetPath, options.expectedSha256, scratch);
      const planDir = join(scratch, 'plan');
      const info = await buildWorkPlan(source, planDir, options);
      await this.db.transaction(async (client) => {
        await client.query('DELETE FROM plan_pages WHERE run_id = $1', [runId]);
        for (let page = 0; page < info.pages; page++) {
          const units = await readWorkPage(planDir, page);
          await client.query('INSERT INTO plan_pages (run_id, page, units) VALUES ($1, $2, $3)', [runId, page, JSON.stringify(units)]);
        }
        await client.query('INSERT INTO plans (run_id, info) VALUES ($1, $2) ON CONFLICT (run_id) DO UPDATE SET info = EXCLUDED.info', [
          runId, JSON.stringify({ ...info, planDir: undefined }),
        ]);
      });
      return info;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async readPage(runId: string, page: number): Promise<WorkUnit[]> {
    const { rows } = await this.db.query<{ units: WorkUnit[] }>('SELECT units FROM plan_pages WHERE run_id = $1 AND page = $2', [runId, page]);
    const found = rows[0];
    if (found) return found.units;
    const { rows: plans } = await this.db.query<{ info: WorkPlanInfo }>('SELECT info FROM plans WHERE run_id = $1', [runId]);
    const pages = plans[0]?.info.pages;
    if (pages === undefined) throw new RangeError(`page ${page} is out of range: run ${runId} has no plan in the results store`);
    throw new RangeError(`page ${page} is out of range: the plan of run ${runId} has ${pages} page${pages === 1 ? '' : 's'}`);
  }

  async writeExtraPage(runId: string, page: number, units: WorkUnit[]): Promise<void> {
    await this.db.query(
      'INSERT INTO plan_pages (run_id, page, units) VALUES ($1, $2, $3) ON CONFLICT (run_id, page) DO UPDATE SET units = EXCLUDED.units',
      [runId, page, JSON.stringify(units)],
    );
  }

  async shareDataset(datasetPath: string, sha256: string): Promise<void> {
    if (await this.hasDataset(sha256)) return;
    await this.db.transaction(async (client) => {
      // Two runs started at once with the same file: one copies it, the other finds it done.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sitechat-dataset:${sha256}`]);
      const { rowCount } = await client.query('SELECT 1 FROM datasets WHERE sha256 = $1', [sha256]);
      if (rowCount) return;
      const hash = createHash('sha256');
      let seq = 0;
      let bytes = 0;
      for await (const chunk of createReadStream(datasetPath, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        await client.query('INSERT INTO dataset_chunks (sha256, seq, data) VALUES ($1, $2, $3)', [sha256, seq++, chunk]);
        bytes += chunk.length;
      }
      // The file changed since it was checked: the run must not start on other bytes than the ones validated.
      const actual = hash.digest('hex');
      if (actual !== sha256) throw new DatasetChangedError(datasetPath, sha256, actual);
      await client.query('INSERT INTO datasets (sha256, name, bytes, chunks) VALUES ($1, $2, $3, $4)', [sha256, basename(datasetPath), bytes, seq]);
    });
  }

  private async hasDataset(sha256: string): Promise<boolean> {
    const { rowCount } = await this.db.query('SELECT 1 FROM datasets WHERE sha256 = $1', [sha256]);
    return Boolean(rowCount);
  }

  /** The dataset's path when this host has it; else a scratch copy of the shared one with that sha256. */
  private async localDataset(datasetPath: string, sha256: string | undefined, scratch: string): Promise<string> {
    if ((await stat(datasetPath).catch(() => undefined))?.isFile()) return datasetPath;
    if (!sha256) return datasetPath; // a scheduled run reads its path afresh each time: the builder says it is missing
    const { rows } = await this.db.query<{ chunks: number }>('SELECT chunks FROM datasets WHERE sha256 = $1', [sha256]);
    const chunks = rows[0]?.chunks;
    if (chunks === undefined) {
      throw new DatasetFileError(datasetPath, `not found on this worker, and the results store holds no copy with sha256 ${sha256.slice(0, 12)}… (sitechat run shares the dataset it starts; otherwise make the path readable on every worker)`);
    }
    // Same file name, so the format is still told by its extension.
    const copy = join(scratch, basename(datasetPath));
    const handle = await open(copy, 'wx');
    try {
      for (let seq = 0; seq < chunks; seq++) {
        const { rows: piece } = await this.db.query<{ data: Buffer }>('SELECT data FROM dataset_chunks WHERE sha256 = $1 AND seq = $2', [sha256, seq]);
        if (!piece[0]) throw new DatasetFileError(datasetPath, `the results store's copy (sha256 ${sha256.slice(0, 12)}…) lacks piece ${seq} of ${chunks}`);
        await handle.write(piece[0].data);
      }
    } finally {
      await handle.close();
    }
    return copy;
  }
}
