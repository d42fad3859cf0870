/**
 * `sitechat review` saves: how long one label takes to save (label, row, verdict recomputed, five reports and
 * history.html rewritten) on runs of several sizes in the file store. The page does not wait for a save (the next row
 * shows at once; saves run one at a time in the background), so a save only has to keep up with a person: 100 rows
 * in 10 minutes is one save every 6 s.
 *
 *   npm run bench:review                      # runs of 100, 1,000 and 10,000 rows, 100 saves each
 *   npm run bench:review -- --rows 25000      # another size
 *
 * No row has a request id, so no feedback workflow starts (its start is one Temporal call; the feedback itself runs on
 * a worker, not in the save).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTemporalClient } from '../src/temporal/client';
import { FileResultsStore } from '../src/store/file/resultsStore';
import { finalizeRun } from '../src/render/writeReports';
import type { Outcome, RowResult } from '../src/domain/results';
import { resolveReviewTarget } from '../src/review/runs';
import { ReviewSession } from '../src/review/session';

const SAVES = 100;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function measure(rows: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sitechat-bench-review-'));
  try {
    const store = new FileResultsStore(dir);
    const runId = `bench-${rows}`;
    await store.init(runId, {
      runId, workflowId: `sitechat-evaluation-${runId}`, kind: 'evaluation', dataset: '/bench.csv', datasetSha256: 'ef'.repeat(32), siteId: 'bench',
      startedAt: new Date().toISOString(), rowCount: rows, options: {},
    });
    const outcomes: Outcome[] = ['passed', 'passed', 'uncertain', 'failed', 'passed'];
    const batch: RowResult[] = [];
    for (let i = 0; i < rows; i++) {
      batch.push({
        id: `r${i}`, index: i, line: i + 2, question: `How long are deleted files kept (case ${i})?`, expected: `${7 + (i % 60)} days`,
        answer: `Deleted files stay in the trash for ${7 + (i % 60)} days on the Free and Personal plans, after which they are removed for good.`,
        outcome: outcomes[i % outcomes.length] ?? 'passed', latencyMs: 900 + (i % 2000),
        assertions: [{ type: 'reference', pass: i % 5 !== 3, score: 0.7, reason: 'bench' }],
      });
      if (batch.length === 1000) await store.append(runId, batch.splice(0));
    }
    if (batch.length) await store.append(runId, batch.splice(0));
    await finalizeRun(store, runId, { outDir: join(dir, runId), gate: { failUnder: 0.8 } });

    const opening = performance.now();
    // A lazy client: never connects, as no row here has feedback due.
    const session = new ReviewSession({ store, client: createTemporalClient(undefined), runsDir: dir, by: 'bench' }, await resolveReviewTarget(store, runId), { sample: 10 });
    await session.open();
    const openMs = performance.now() - opening;
    const items = session.snapshot().items.slice(0, SAVES);
    const times: number[] = [];
    for (const [i, item] of items.entries()) {
      const t = performance.now();
      await session.save({ runId, rowId: item.rowId, verdict: i % 3 === 0 ? 'fail' : 'pass' });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const total = times.reduce((a, b) => a + b, 0);
    // A person faster than the saves: every label of the queue given at once; the reports are rewritten by the last.
    const burst = performance.now();
    await Promise.all(items.map((item) => session.save({ runId, rowId: item.rowId, verdict: 'pass' })));
    const burstMs = performance.now() - burst;
    process.stdout.write(`| ${rows.toLocaleString('en-US')} | ${Math.round(openMs)} ms | ${times.length} | ${Math.round(pct(times, 50))} ms | ${Math.round(pct(times, 95))} ms | ${(total / 1000).toFixed(1)} s | ${(burstMs / 1000).toFixed(1)} s |\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sizes = arg('--rows') ? [Number(arg('--rows'))] : [100, 1000, 10_000];
  process.stdout.write('| run rows | open (queue built) | saves | save p50 | save p95 | saves one after another | the same saves given at once |\n|---|---|---|---|---|---|---|\n');
  for (const rows of sizes) await measure(rows);
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
