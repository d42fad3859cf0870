import type { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AskInput, AskResult } from '../../activities/types';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { evaluationRun } from '../../workflows';
import { FakeRun, Outcome, useWorkflowTestEnv, answered, plannedRow, runInput, singleTurnUnits } from './harness';

/**
 * Re-asks after the service failed a request (`--reask-failed`), through a whole evaluation run with mocked
 * activities: a first turn moves to a fresh session and its failed one is closed, a follow-up stays in its session,
 * a request-level failure and `--reask-failed 0` are settled as they come. Backoff timers pass at once.
 */
const env = useWorkflowTestEnv();

let runs = 0;
function start(client: Client, options: Parameters<typeof runInput>[1] = {}) {
  const id = `wf-reask-${++runs}`;
  return client.workflow.start(evaluationRun, { taskQueue: TaskQueue.main, workflowId: id, args: [runInput(id, options)] });
}

const RAG = 'failed to call rag service';

/** What the service answers a request it failed: async (a request id), or a sync chat's 5xx (none). */
function failed(input: AskInput, error = RAG, sync = false): AskResult {
  return {
    status: 'failed', sessionId: input.sessionId, ...(!sync && { requestId: `req-${input.rowId}-${input.ask ?? 0}` }),
    error: sync ? `500 ${error}` : error, serviceError: error, latencyMs: 5,
  };
}

/** Fails the first `times` asks of the rows named, answers every other. */
function failing(rows: Record<string, number>, make: (input: AskInput) => AskResult = (i) => failed(i)) {
  const seen = new Map<string, number>();
  return async (input: AskInput): Promise<AskResult> => {
    const n = (seen.get(input.rowId) ?? 0) + 1;
    seen.set(input.rowId, n);
    return n <= (rows[input.rowId] ?? 0) ? make(input) : answered(input);
  };
}

describe('a request the service failed is asked again', () => {
  it('a first turn: in a fresh session, the failed one closed once; its follow-up goes to the new session', async (ctx) => {
    const t = env(ctx);
    const conversation = [plannedRow('t1', { conversation: 'c1', turn: 1 }), plannedRow('t2', { conversation: 'c1', turn: 2 })];
    const run = new FakeRun([[{ key: 'c1', rows: conversation }]], { ask: failing({ t1: 1 }) });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    const [first, again, followUp] = run.asks.map((a) => a.input);
    expect(run.asks.map((a) => [a.input.rowId, a.input.ask, a.attempt])).toEqual([['t1', undefined, 1], ['t1', 1, 1], ['t2', undefined, 1]]);
    expect(again?.sessionId).not.toBe(first?.sessionId);
    expect(followUp?.sessionId).toBe(again?.sessionId);
    expect(run.result('t1')).toMatchObject({
      outcome: Outcome.passed, sessionId: again?.sessionId, reasked: [{ requestId: 'req-t1-0', sessionId: first?.sessionId, error: RAG }],
    });
    expect(run.result('t2')).toMatchObject({ outcome: Outcome.passed, sessionId: again?.sessionId });
    expect(run.result('t2').reasked).toBeUndefined();
    // The failed session on its own, the conversation's at its end: each once.
    const closes = run.settles.map((s) => s.input.closeSessionId).filter(Boolean);
    expect(closes.sort()).toEqual([first?.sessionId, again?.sessionId].sort());
    expect(result.summary).toMatchObject({
      passed: 2, error: 0, reasked: { rows: 1, requests: 1, answered: 1, rowIds: ['t1'] }, sessions: { opened: 2, closed: 2, closeFailed: 0 },
    });
  });

  it('a follow-up turn stays in its session (the conversation needs it); nothing extra is closed', async (ctx) => {
    const t = env(ctx);
    const conversation = [plannedRow('t1', { conversation: 'c1', turn: 1 }), plannedRow('t2', { conversation: 'c1', turn: 2 })];
    const run = new FakeRun([[{ key: 'c1', rows: conversation }]], { ask: failing({ t2: 1 }) });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    const sessions = new Set(run.asks.map((a) => a.input.sessionId));
    expect(run.asks.map((a) => [a.input.rowId, a.input.ask])).toEqual([['t1', undefined], ['t2', undefined], ['t2', 1]]);
    expect(sessions.size).toBe(1);
    const [session] = sessions;
    expect(run.result('t2')).toMatchObject({ outcome: Outcome.passed, reasked: [{ requestId: 'req-t2-0', sessionId: session }] });
    expect(run.settles.map((s) => s.input.closeSessionId).filter(Boolean)).toEqual([session]);
    expect(result.summary).toMatchObject({ passed: 2, reasked: { rows: 1, requests: 1 }, sessions: { closed: 1 } });
  });

  it('a session the dataset names is kept: its first turn is re-asked in it', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([[{ key: 'row:r1', rows: [plannedRow('r1', { session_id: 'thread-a' })] }]], { ask: failing({ r1: 1 }) });
    await t.withWorkers(run.activities(), async () => (await start(t.client)).result());
    expect(run.asks.map((a) => a.input.sessionId)).toEqual(['thread-a', 'thread-a']);
    expect(run.result('r1')).toMatchObject({ outcome: Outcome.passed, reasked: [{ sessionId: 'thread-a' }] });
  });

  it('still failing after --reask-failed re-asks: `error`, with every failed request; every session closed once', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1'])], { ask: failing({ r1: 99 }) });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    expect(run.asks.map((a) => a.input.ask)).toEqual([undefined, 1, 2]);
    const sessions = run.asks.map((a) => a.input.sessionId);
    expect(new Set(sessions).size).toBe(3);
    const row = run.result('r1');
    expect(row).toMatchObject({ outcome: Outcome.error, errorType: 'RequestFailed', requestId: 'req-r1-2', sessionId: sessions[2] });
    expect(row.error).toBe(`request failed: ${RAG} (still failing after 2 re-asks)`);
    expect(row.reasked?.map((r) => r.sessionId)).toEqual(sessions.slice(0, 2));
    expect(run.settles.map((s) => s.input.closeSessionId).sort()).toEqual([...sessions].sort());
    expect(result.summary).toMatchObject({ error: 1, reasked: { rows: 1, requests: 2, answered: 0 }, sessions: { opened: 3, closed: 3 } });
  });

  it('--reask-failed 1 bounds the re-asks', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1'])], { ask: failing({ r1: 99 }) });
    await t.withWorkers(run.activities(), async () => (await start(t.client, { reaskFailed: 1 })).result());
    expect(run.asks).toHaveLength(2);
  });

  it("a sync chat's 5xx (no request id): re-asked in a fresh session; a 404 closing the failed one means the API never had it", async (ctx) => {
    const t = env(ctx);
    let failedSession: string | undefined;
    const run = new FakeRun([singleTurnUnits(['r1'])], {
      ask: failing({ r1: 1 }, (i) => {
        failedSession = i.sessionId;
        return failed(i, RAG, true);
      }),
      settle: async (input) => ({
        ...(input.feedback && { feedback: { ok: true } }),
        ...(input.closeSessionId && { close: input.closeSessionId === failedSession ? { ok: false, error: '404 session not found' } : { ok: true } }),
      }),
    });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client, { mode: 'sync' })).result());
    expect(run.result('r1')).toMatchObject({ outcome: Outcome.passed, reasked: [{ sessionId: failedSession, error: RAG }] });
    expect(run.result('r1').reasked?.[0]?.requestId).toBeUndefined();
    expect(run.settles.map((s) => s.input.closeSessionId)).toContain(failedSession);
    expect(run.closeFailures).toEqual([]);
    expect(result.summary).toMatchObject({ passed: 1, sessions: { closed: 1, closeFailed: 0 } });
  });
});

describe('what is not re-asked', () => {
  it("a request-level failure (`site not found`): `error` at once, as before", async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1'])], { ask: failing({ r1: 99 }, (i) => failed(i, 'site not found')) });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());
    expect(run.asks).toHaveLength(1);
    expect(run.result('r1')).toMatchObject({ outcome: Outcome.error, error: 'request failed: site not found' });
    expect(run.result('r1').reasked).toBeUndefined();
    expect(result.summary.reasked).toBeUndefined();
  });

  it('--reask-failed 0: a transient failure is `error` at once, in its one session', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1'])], { ask: failing({ r1: 1 }) });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client, { reaskFailed: 0 })).result());
    expect(run.asks).toHaveLength(1);
    expect(run.result('r1')).toMatchObject({ outcome: Outcome.error, error: `request failed: ${RAG}` });
    expect(result.summary).toMatchObject({ error: 1, sessions: { closed: 1 } });
  });

  it('a failure that is not the service\'s word (an answer that never came, a lost request): as before', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1'])], {
      ask: async (i) => ({ status: 'failed', sessionId: i.sessionId, requestId: 'req-r1', error: 'status lookup: 404 request not found', latencyMs: 5 }),
    });
    await t.withWorkers(run.activities(), async () => (await start(t.client)).result());
    expect(run.asks).toHaveLength(1);
    expect(run.result('r1').outcome).toBe(Outcome.error);
  });
});
