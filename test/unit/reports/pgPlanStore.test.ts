import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sha256File } from '../../../src/datasets/hash';
import { FilePlanStore } from '../../../src/store/file/planStore';
import { type PlanStore } from '../../../src/store/store';
import { PgDatabase } from '../../../src/store/pg/database';
import { PgPlanStore } from '../../../src/store/pg/planStore';
import { describeWithPostgres } from '../../helpers/usePostgres';
import { tempDir } from './fixtures';

const ROWS = ['id,question,conversation,turn', 'a,Q1?,,', 'b,Q2?,c1,1', 'c,Q3?,,', 'd,Q4?,c1,2', 'e,Q5?,,'];

describeWithPostgres('PgPlanStore', (pg) => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: PgDatabase;
  let plans: PgPlanStore;
  let dataset: string;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    db = new PgDatabase(await pg.freshDatabase());
    plans = new PgPlanStore(db, dir);
    dataset = join(dir, 'host-a', 'questions.csv');
    await mkdir(join(dir, 'host-a'));
    await writeFile(dataset, `${ROWS.join('\n')}\n`);
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  it('stores the same pages as the file plan store, and leaves no scratch files behind', async () => {
    const options = { pageSize: 2, defaultEmail: 'qa@example.com' };
    const files: PlanStore = new FilePlanStore(join(dir, 'runs'));
    const fromFile = await files.build('run-1', dataset, options);
    const fromPg = await plans.build('run-1', dataset, options);
    expect({ ...fromPg, planDir: '' }).toEqual({ ...fromFile, planDir: '' });
    expect(fromPg.pages).toBe(2);
    for (let page = 0; page < fromPg.pages; page++) expect(await plans.readPage('run-1', page)).toEqual(await files.readPage('run-1', page));
    expect((await readdir(dir)).sort()).toEqual(['host-a', 'runs']);

    // A retry rebuilds over the old plan; another worker (pool) reads it.
    await plans.build('run-1', dataset, options);
    const other = new PgDatabase(pg.server().url(db.location.split('/').pop() ?? ''));
    try {
      expect(await new PgPlanStore(other).readPage('run-1', 1)).toEqual(await files.readPage('run-1', 1));
    } finally {
      await other.close();
    }
    await expect(plans.readPage('run-1', 2)).rejects.toThrow('page 2 is out of range: the plan of run run-1 has 2 pages');
    await expect(plans.readPage('nope', 0)).rejects.toThrow(RangeError);
  });

  it('lets a worker without the file build the plan from the dataset the CLI shared', async () => {
    const sha256 = await sha256File(dataset);
    const options = { pageSize: 10, defaultEmail: 'qa@example.com', expectedSha256: sha256 };
    const elsewhere = join(dir, 'host-b', 'questions.csv'); // the CLI's path, which this worker does not have
    await expect(plans.build('run-1', elsewhere, options)).rejects.toThrow(/not found on this worker, and the results store holds no copy/);

    await plans.shareDataset(dataset, sha256);
    await plans.shareDataset(dataset, sha256); // a second run of the same file
    await rm(dataset);
    const info = await plans.build('run-1', elsewhere, options);
    expect(info).toMatchObject({ rows: 5, units: 4, pages: 1, sha256 });
    expect((await plans.readPage('run-1', 0)).flatMap((u) => u.rows.map((r) => r.id))).toEqual(['a', 'c', 'e', 'b', 'd']);
  });

  it('refuses to share a file that changed since it was checked', async () => {
    await expect(plans.shareDataset(dataset, 'f'.repeat(64))).rejects.toThrow(/changed/i);
    const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM dataset_chunks');
    expect(rows[0]?.n).toBe('0');
  });
});
