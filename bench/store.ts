/**
 * The results stores side by side: appending 10,000 rows (in batches of 100, as chunks record them) and reading them
 * back in dataset order, on the file store and, when `SITECHAT_STORE_URL` is set, on PostgreSQL (a fresh run id in
 * that database: use a scratch one, the run stays there). Then labels: storing as many labels as rows, and looking
 * each one up by its key alone, as every ask of a run does (labels first). A measurement to read, not a test: nothing
 * is asserted.
 *
 *   npm run build && node dist/bench/store.js                                          # files only
 *   npm run build && SITECHAT_STORE_URL=postgres://u:pw@127.0.0.1:5432/db node dist/bench/store.js
 *   … node dist/bench/store.js --rows 100000
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, storeUrlFromEnv } from '../src/store/open';
import { labelKey } from '../src/labels/key';
import type { Label } from '../src/domain/label';
import type { ResultsStore } from '../src/store/store';
import type { RowResult } from '../src/domain/results';

const BATCH = 100;

function rowOf(index: number): RowResult {
  return {
    id: `row-${index}`, index, line: index + 2, question: `How much does plan ${index % 7} cost per month?`, outcome: 'passed',
    answer: 'The Personal plan costs $9.99 per month, billed monthly or yearly. '.repeat(20), latencyMs: 900 + (index % 300),
    sessionId: `s-${index}`, requestId: `q-${index}`, confidenceScore: 0.9, confidenceLevel: 'high', finishedAt: new Date(0).toISOString(),
  };
}

async function measure(name: string, store: ResultsStore, rows: number): Promise<void> {
  const runId = `bench-${randomBytes(4).toString('hex')}`;
  await store.init(runId, {
    runId, workflowId: runId, kind: 'evaluation', dataset: 'bench.csv', datasetSha256: '0'.repeat(64), siteId: 'bench', startedAt: new Date().toISOString(), options: {},
  });
  const t0 = performance.now();
  for (let start = 0; start < rows; start += BATCH) {
    await store.append(runId, Array.from({ length: Math.min(BATCH, rows - start) }, (_, i) => rowOf(start + i)));
  }
  const t1 = performance.now();
  let read = 0;
  for await (const row of store.read(runId)) if (row.index === read) read++;
  const t2 = performance.now();
  if (read !== rows) throw new Error(`${name}: read ${read} rows in order, expected ${rows}`);
  process.stdout.write(`${name.padEnd(10)} append ${rows} rows (batches of ${BATCH}): ${((t1 - t0) / 1000).toFixed(2)} s   read back: ${((t2 - t1) / 1000).toFixed(2)} s\n`);
}

function labelOf(site: string, index: number): Label {
  const fields = { siteId: site, question: `How much does plan ${index} cost per month?`, references: [`$${index}.99 per month`], answer: `the plan costs $${index}.99 per month` };
  return { key: labelKey(fields), ...fields, verdict: index % 3 === 0 ? 'fail' : 'pass', by: 'bench', at: new Date(0).toISOString() };
}

async function measureLabels(name: string, store: ResultsStore, count: number): Promise<void> {
  const site = `bench-${randomBytes(4).toString('hex')}`;
  const labels = Array.from({ length: count }, (_, i) => labelOf(site, i));
  const t0 = performance.now();
  for (let start = 0; start < count; start += BATCH) await store.putLabels(labels.slice(start, start + BATCH));
  const t1 = performance.now();
  let found = 0;
  for (const label of labels) if ((await store.getLabels([label.key])).has(label.key)) found++;
  const t2 = performance.now();
  if (found !== count) throw new Error(`${name}: found ${found} of ${count} labels`);
  const perLookup = ((t2 - t1) / count).toFixed(3);
  process.stdout.write(`${name.padEnd(10)} put ${count} labels (batches of ${BATCH}): ${((t1 - t0) / 1000).toFixed(2)} s   ${count} lookups by key, one at a time: ${((t2 - t1) / 1000).toFixed(2)} s (${perLookup} ms each)\n`);
}

async function main(): Promise<void> {
  const flag = process.argv.indexOf('--rows');
  const rows = flag > 0 ? Number(process.argv[flag + 1]) : 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  try {
    const files = openStore(dir).store;
    await measure('files', files, rows);
    await measureLabels('files', files, rows);
    const url = storeUrlFromEnv();
    if (url === undefined) {
      process.stdout.write('PostgreSQL: SITECHAT_STORE_URL is not set, skipped\n');
      return;
    }
    const pg = openStore(dir, url);
    try {
      await measure('PostgreSQL', pg.store, rows);
      await measureLabels('PostgreSQL', pg.store, rows);
    } finally {
      await pg.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
