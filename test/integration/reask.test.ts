import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/domain/run';
import { DEMO_HEADER, demoRows, readResults, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

const RAG = 'failed to call rag service';

/**
 * Re-asks after the service failed a request (`--reask-failed`, default 2) and the count of possible second asks
 * (`askedTwice`), against the simulator over HTTP and a real Temporal server. `transientFailRate: 1` fails every
 * question the first time it is asked on its site, and never again: each row needs exactly one re-ask.
 */
describe('a hiccup of the service is re-asked, not a failed night (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('re-asks every transient failure in a fresh session, grades the answer, passes the gate at --max-error-rate 0, and the reports say so', async () => {
    stack.sim.setFaults({ 'chat.async': { transientFailRate: 1 } });
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, demoRows(4)), { failUnder: 0.5 });
    const { summary, reportDir } = (await handle.result()) as RunResult;

    expect(summary).toMatchObject({ total: 4, error: 0, passed: 4, reasked: { rows: 4, requests: 4, answered: 4 }, askedTwice: { count: 0 } });
    expect(summary.gate).toMatchObject({ verdict: 'passed', passed: true });
    const stats = stack.sim.stats();
    expect(stats).toMatchObject({ submitted: 8, faults: { transientFailures: 4 }, duplicateSubmissions: 0, sessions: { total: 8, closed: 8 } });
    for (const row of readResults(reportDir)) {
      expect(row.reasked).toEqual([{ requestId: expect.any(String), sessionId: expect.any(String), error: RAG }]);
      expect(row.reasked?.[0]?.sessionId).not.toBe(row.sessionId);
      expect(row.reasked?.[0]?.requestId).not.toBe(row.requestId);
    }
    const line = 're-asked after the service failed: 4 rows (4 requests), 4 answered on a re-ask';
    expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toContain(line);
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain(line);
    expect(JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8'))).toMatchObject({ reasked: summary.reasked });
  });

  it('a follow-up of a re-asked first turn is asked in the new session, and re-asked there itself', async () => {
    stack.sim.setFaults({ 'chat.async': { transientFailRate: 1 } });
    const dataset = writeDataset(stack, DEMO_HEADER, ['t1,share,1,How much does the Personal plan cost?,$9.99', 't2,share,2,How much storage do I get for free?,5 GB']);
    const { summary, reportDir } = (await (await startRun(stack, dataset)).result()) as RunResult;

    const [t1, t2] = readResults(reportDir);
    expect(t1?.reasked?.[0]?.sessionId).not.toBe(t1?.sessionId);
    expect(t2?.sessionId).toBe(t1?.sessionId);
    expect(t2?.reasked).toEqual([{ requestId: expect.any(String), sessionId: t1?.sessionId, error: RAG }]);
    expect(summary).toMatchObject({ error: 0, reasked: { rows: 2, requests: 2 }, sessions: { opened: 2, closed: 2, closeFailed: 0 } });
    expect(stack.sim.stats()).toMatchObject({ submitted: 4, duplicateSubmissions: 0, sessions: { total: 2, closed: 2 } });
  });

  it('a request that failed for a request-level reason (`site not found`) is not re-asked', async () => {
    stack.sim.setFaults({ 'chat.async': { asyncFailRate: 1, asyncFailError: 'site not found' } });
    const { summary, reportDir } = (await (await startRun(stack, writeDataset(stack, DEMO_HEADER, demoRows(3)))).result()) as RunResult;
    expect(summary.error).toBe(3);
    expect(summary.reasked).toBeUndefined();
    expect(stack.sim.stats().submitted).toBe(3);
    for (const r of readResults(reportDir)) expect(r).toMatchObject({ outcome: 'error', error: 'request failed: site not found' });
  });

  it('--reask-failed 0 keeps the behaviour before re-asks: each failed request is an `error` and fails the gate', async () => {
    stack.sim.setFaults({ 'chat.async': { transientFailRate: 1 } });
    const { summary } = (await (await startRun(stack, writeDataset(stack, DEMO_HEADER, demoRows(3)), { reaskFailed: 0 })).result()) as RunResult;
    expect(summary).toMatchObject({ error: 3, errorsByType: { RequestFailed: 3 }, gate: { verdict: 'failed' } });
    expect(summary.reasked).toBeUndefined();
    expect(stack.sim.stats()).toMatchObject({ submitted: 3, sessions: { total: 3, closed: 3 } });
  });

  it('sync chat: a 500 with the API\'s error is re-asked in a fresh session, not sent again in its own, and is no second ask', async () => {
    stack.sim.setFaults({ 'chat.sync': { transientFailRate: 1 } });
    const outFile = join(stack.runsDir, `answers-${Date.now()}.csv`);
    const { summary } = (await (await startRun(stack, writeDataset(stack, DEMO_HEADER, demoRows(3)), { mode: 'sync', outFile, feedback: 'none' }, 'backfill')).result()) as RunResult;
    expect(summary).toMatchObject({ answered: 3, error: 0, reasked: { rows: 3, requests: 3 }, askedTwice: { count: 0 } });
    expect(stack.sim.stats()).toMatchObject({ submitted: 6, duplicateSubmissions: 0, sessions: { total: 6, closed: 6 } });
  });
});

describe('every second submission is counted (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  // One conversation at a time: the simulator's seeded faults then hit the same requests every time.
  const lossy = { concurrency: 1 };
  // Questions no two rows share: the simulator takes an ask of a question whose earlier response was lost, by the same
  // asker in another session, for a second submission, and a dataset may ask one question in two rows on purpose.
  const distinct = (n: number): string[] => demoRows(n).map((line, i) => line.replace(/^(r\d+,,,[^,]+)/u, `$1 (${i + 1})`));

  it("async submit: a lost response after acceptance (a proxy's 502 page, a reset) puts the row in askedTwice; the simulator's count of second submissions is no higher", async () => {
    stack.sim.setFaults({ 'chat.async': { badGatewayAfterAcceptRate: 0.3, dropRate: 0.2 } });
    const { summary } = (await (await startRun(stack, writeDataset(stack, DEMO_HEADER, distinct(10)), lossy)).result()) as RunResult;
    const stats = stack.sim.stats();
    expect(stats.faults.badGateway, 'a 502 page was sent').toBeGreaterThan(0);
    expect(stats.duplicateSubmissions, 'the simulator saw second submissions').toBeGreaterThan(0);
    expect(summary.error).toBe(0);
    expect(stats.duplicateSubmissions).toBeLessThanOrEqual(summary.askedTwice?.extraSends ?? 0);
    expect(summary.askedTwice?.count).toBeGreaterThan(0);
  });

  it("sync chat: a lost answer (a proxy's 502 page, a reset) puts the row in askedTwice; the simulator's count of second submissions is no higher", async () => {
    stack.sim.setFaults({ 'chat.sync': { badGatewayAfterAcceptRate: 0.3, dropRate: 0.2 } });
    const outFile = join(stack.runsDir, `answers-${Date.now()}.csv`);
    const { summary } = (await (await startRun(stack, writeDataset(stack, DEMO_HEADER, distinct(10)), { ...lossy, mode: 'sync', outFile, feedback: 'none' }, 'backfill')).result()) as RunResult;
    const stats = stack.sim.stats();
    expect(stats.faults.badGateway + stats.faults.dropped).toBeGreaterThan(0);
    expect(stats.duplicateSubmissions, 'the simulator saw second submissions').toBeGreaterThan(0);
    expect(summary.error).toBe(0);
    expect(stats.duplicateSubmissions).toBeLessThanOrEqual(summary.askedTwice?.extraSends ?? 0);
    expect(summary.askedTwice?.count).toBeGreaterThan(0);
  });
});
