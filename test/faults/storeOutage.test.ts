import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from 'pg';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { printedSummary, startFaultStack, type FaultStack } from '../helpers/faultStack';
import { describeWithPostgres } from '../helpers/usePostgres';

/**
 * The PostgreSQL results store goes away twice during a run (issue "nothing lost and nothing asked twice when the
 * database misbehaves"): two `sitechat worker` processes share one database, which is stopped as a crash would stop
 * it (`pg_ctl stop -m immediate`) for 30 s a quarter of the way in and for 90 s later on. The run must wait both out:
 * every row recorded once, no question asked twice, every session closed, the reports' counts true, and the CLI
 * saying what it waits for.
 */

const ROWS = 150;
const QUESTIONS: [string, string][] = [
  ['How much does the Personal plan cost?', '$9.99'],
  ['How much storage do I get for free?', '5 GB'],
  ['Can I get a refund for my annual subscription?', '14 days'],
];

describeWithPostgres('fault suite: the results store down for 30 s and for 90 s under 2 workers', (pg) => {
  let stack: FaultStack;
  let storeUrl: string;

  beforeAll(async () => {
    storeUrl = await pg.freshDatabase();
    stack = await startFaultStack('sitechat-store-faults-', { latencyScale: 0.05, rateLimit: 5, seed: 7 }, () => ({ SITECHAT_STORE_URL: storeUrl }));
  }, 120_000);

  afterAll(async () => stack?.close());

  it('waits out both outages: every row once, nothing asked twice, every session closed, true counts, exit = verdict', async () => {
    const { sim, dir } = stack;
    const dataset = stack.writeDataset('questions.csv', ROWS, QUESTIONS);
    for (let i = 0; i < 2; i++) stack.spawnWorker({ SITECHAT_RUNS_DIR: join(dir, `worker-${i}`) });
    const run = stack.cli(['run', dataset, '--no-worker', '--json', '--concurrency', '20', '--fail-under', '0', '--out', join(dir, 'report')]);
    const waitFor = (done: () => boolean, what: string): Promise<void> => stack.waitFor(done, what, run.stderr);
    const outage = async (seconds: number): Promise<void> => {
      await pg.server().halt();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      await pg.server().resume();
    };
    await waitFor(() => sim.stats().chatRequests.completed >= ROWS / 4, 'a quarter of the answers');
    await outage(30);
    await waitFor(() => sim.stats().chatRequests.completed >= (ROWS * 2) / 3, 'two thirds of the answers');
    await outage(90);

    const code = await run.exit;
    const summary = printedSummary<RunSummary>(run, code);
    const stderr = run.stderr();
    const said = `gate ${JSON.stringify(summary.gate)}; counts ${JSON.stringify({ passed: summary.passed, failed: summary.failed, uncertain: summary.uncertain, error: summary.error, errorsByType: summary.errorsByType })}\n${stderr}`;
    expect(code, said).toBe(0);
    expect(summary.gate?.verdict, said).toBe('passed');
    // The CLI said what the run waited for, and when it went on.
    expect(stderr).toMatch(/cannot reach the results store/);
    expect(stderr).toMatch(/results store is reachable again/);
    expect(stderr).not.toContain(storeUrl);

    // Every row exactly once, in the reports and in the database.
    const results = readFileSync(join(dir, 'report', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);
    expect(results).toHaveLength(ROWS);
    expect(new Set(results.map((r) => r.id)).size).toBe(ROWS);
    expect(summary).toMatchObject({ total: ROWS, missing: 0, skipped: 0, error: 0, timedOut: 0 });
    const db = new Client({ connectionString: storeUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: string; ids: string }>('SELECT count(*) AS n, count(DISTINCT row_id) AS ids FROM run_rows WHERE run_id = $1', [summary.runId]);
      expect(rows[0]).toEqual({ n: String(ROWS), ids: String(ROWS) });
    } finally {
      await db.end();
    }

    // Nothing asked twice: the simulator saw each question once, and the summary says so.
    const stats = sim.stats();
    expect(stats.submitted).toBe(ROWS);
    expect(stats.duplicateSubmissions).toBe(0);
    expect(summary.askedTwice?.count ?? 0).toBe(0);
    // Every session closed, and the report's counts are the simulator's.
    expect(stats.sessions.total).toBe(ROWS);
    expect(stats.sessions.total - stats.sessions.closed).toBe(0);
    expect(summary.sessions).toMatchObject({ opened: ROWS, closed: stats.sessions.closed, closeFailed: 0 });
    for (const r of results) expect(r.feedback, `row ${r.id}`).toMatch(/^(good|bad)$/);
    expect(stats.rateLimited).toBe(0);
  }, 600_000);
// Crashed twice: only a server with its durability settings keeps every transaction it acknowledged.
}, { durable: true });
