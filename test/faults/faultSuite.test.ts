import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { DEMO } from '../../src/sim/constants';
import { DEMO_QUESTIONS, printedSummary, startFaultStack, type FaultStack } from '../helpers/faultStack';
import { exited } from '../helpers/workerProcess';

/**
 * Everything at once, with real processes (issue "exactly once at scale and under faults"): two `sitechat worker`
 * processes on one host, the simulator enforcing 5 requests/s per path with 10% 500s, 5% failed answers (re-asked) and
 * 1% dropped responses, one worker SIGKILLed mid-run, and the Temporal server down for 30 s and restarted on its
 * database. `sitechat run --no-worker` follows the run throughout and must exit with the run's own verdict.
 */

const ROWS = 120;

describe('fault suite: 2 workers, API faults, a worker SIGKILL and a Temporal restart', () => {
  let stack: FaultStack;

  beforeAll(async () => {
    stack = await startFaultStack('sitechat-faults-', { latencyScale: 0.05, rateLimit: 5, seed: 11 });
  }, 120_000);

  afterAll(async () => stack?.close());

  it('every row once, 0 × 429, feedback for every graded row, every session closed, no extra ask beyond the drops, exit = verdict', async () => {
    const { sim, dir } = stack;
    const dataset = stack.writeDataset('faults.csv', ROWS, DEMO_QUESTIONS);
    const first = stack.spawnWorker();
    stack.spawnWorker();
    sim.setFaults({ '*': { failRate: 0.1, dropRate: 0.01 }, 'chat.async': { asyncFailRate: 0.05 } });

    const run = stack.cli(['run', dataset, '--no-worker', '--json', '--concurrency', '20', '--max-error-rate', '0.25', '--fail-under', '0', '--out', join(dir, 'report')]);
    const waitFor = (done: () => boolean, what: string): Promise<void> => stack.waitFor(done, what, run.stderr, 120_000);

    // A third of the questions answered: kill one worker while questions are in flight.
    await waitFor(() => sim.stats().chatRequests.completed >= ROWS / 3, 'a third of the answers');
    first.kill('SIGKILL');
    await exited(first);

    // Temporal down for 30 s, then back on the same database and port.
    await waitFor(() => sim.stats().chatRequests.completed >= ROWS / 2, 'half of the answers');
    await stack.stopServer();
    await new Promise((r) => setTimeout(r, 30_000));
    await stack.startServer();

    const code = await run.exit;
    expect(run.stderr()).not.toContain(DEMO.apiKey);
    const summary = printedSummary<RunSummary>(run, code);
    // The CLI's exit code is the run's verdict (0 passed, 1 failed), never 3 for an outage it outlived.
    expect(code).toBe(summary.gate?.verdict === 'passed' ? 0 : 1);

    const results = readFileSync(join(dir, 'report', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);
    expect(results).toHaveLength(ROWS);
    expect(new Set(results.map((r) => r.id)).size).toBe(ROWS);
    expect(summary.total).toBe(ROWS);

    const stats = sim.stats();
    // Pacing held across both workers, the kill and the restart.
    expect(stats.rateLimited).toBe(0);
    for (const [endpoint, peak] of Object.entries(stats.peakRatePerPath)) expect(peak, endpoint).toBeLessThanOrEqual(5);
    // Feedback was never given up: every graded row has its good/bad recorded.
    const graded = results.filter((r) => r.outcome === 'passed' || r.outcome === 'failed');
    expect(graded.length).toBeGreaterThan(ROWS / 2);
    for (const r of graded) expect(r.feedback, `row ${r.id}: ${r.feedbackError ?? ''}`).toMatch(/^(good|bad)$/);
    expect(summary.feedback.failed).toBe(0);
    // Every session the run opened was closed.
    expect(stats.sessions.total - stats.sessions.closed).toBe(0);
    expect(summary.sessions.closeFailed).toBe(0);
    // A question is asked again only after a lost response (in the same session), or as a re-ask of a request the
    // service failed (a first turn in a fresh session).
    const reasked = summary.reasked?.requests ?? 0;
    const extraAsks = stats.submitted - new Set(results.filter((r) => r.requestId).map((r) => r.id)).size;
    expect(extraAsks).toBeLessThanOrEqual(stats.faults.dropped + reasked);
    expect(stats.duplicateSubmissions).toBeLessThanOrEqual(stats.faults.dropped);
    expect(stats.sessions.total).toBeLessThanOrEqual(ROWS + reasked);
    // Every second submission the simulator saw is counted; a row is counted only after a lost response or a 500 on
    // its submit (the runner cannot tell whether the question was taken before the 500).
    expect(stats.duplicateSubmissions).toBeLessThanOrEqual(summary.askedTwice?.extraSends ?? 0);
    expect(summary.askedTwice?.count ?? 0).toBeLessThanOrEqual(stats.faults.dropped + (stats.requests['chat.async']?.['500'] ?? 0));
  }, 600_000);
});
