import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { evaluationRun } from '../../workflows';
import { cancelSignal } from '../../workflows/signals';
import { FakeRun, Gate, Outcome, useWorkflowTestEnv, answered, outcomes, plannedRow, runInput, singleTurnUnits, until } from './harness';

/**
 * The chunk workflow's steps (ask, grade, settle, record; the follow-up turn; cancels) driven through a whole
 * evaluation run, with every activity mocked. The time-skipping server lets retry backoffs and activity timeouts
 * pass at once while a test waits for the run's result.
 */
const env = useWorkflowTestEnv();

let runs = 0;
function start(client: Client, options: Parameters<typeof runInput>[1] = {}) {
  const id = `wf-test-${++runs}`;
  return client.workflow.start(evaluationRun, { taskQueue: TaskQueue.main, workflowId: id, args: [runInput(id, options)] });
}

/** Whether the chunk has been told to cancel (its history holds the signal), so what it does next sees it. */
async function chunkSignalled(client: Client, runWorkflowId: string, times = 1): Promise<boolean> {
  const history = await client.workflow.getHandle(`${runWorkflowId}/chunk-0`).fetchHistory();
  const cancels = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'cancel');
  return cancels.length >= times;
}

/** An ask that never answers: it ends only when its cancellation reaches it (the worker stopping). */
async function neverAnswers(): Promise<never> {
  await Context.current().cancelled;
  throw new Error('unreachable: `cancelled` only rejects');
}

describe('an ask that times out', () => {
  it('an answer that never came within the answer timeout: `timed_out`, not graded, no feedback, its session still closed', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1', 'r2'])], {
      ask: async (input) => input.rowId === 'r1'
        ? { status: 'timed_out', sessionId: input.sessionId, requestId: 'req-r1', error: 'no answer within 300 s', latencyMs: 300_000 }
        : answered(input),
    });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    expect(run.result('r1')).toMatchObject({ outcome: Outcome.timedOut, error: 'no answer within 300 s' });
    expect(run.result('r1').assertions).toBeUndefined();
    expect(run.result('r2')).toMatchObject({ outcome: Outcome.passed, feedback: 'good' });
    const r1Session = run.asks.find((a) => a.input.rowId === 'r1')?.input.sessionId;
    const r1Settle = run.settles.filter((s) => s.input.closeSessionId === r1Session);
    expect(r1Settle.map((s) => s.input.feedback)).toEqual([undefined]);
    expect(result.summary).toMatchObject({ timedOut: 1, passed: 1, total: 2, sessions: { closed: 2, closeFailed: 0 } });
  });
});

describe('a follow-up turn after a failed first turn', () => {
  it('the first turn fails after its retries (`error`); the second is still asked in the same session, graded, and the session closed once', async (ctx) => {
    const t = env(ctx);
    const conversation = [
      plannedRow('t1', { conversation: 'c1', turn: 1 }),
      plannedRow('t2', { conversation: 'c1', turn: 2 }),
    ];
    const run = new FakeRun([[{ key: 'c1', rows: conversation }]], {
      ask: async (input) => {
        if (input.rowId === 't1') throw ApplicationFailure.retryable('503 service_unavailable', 'InternalServerError', { status: 503 });
        return answered(input);
      },
    });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    const t1 = run.asks.filter((a) => a.input.rowId === 't1');
    const t2 = run.asks.filter((a) => a.input.rowId === 't2');
    expect(t1.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(t2).toHaveLength(1);
    const sessionId = t2[0]?.input.sessionId;
    expect(sessionId).toBeDefined();
    expect(t1.every((a) => a.input.sessionId === sessionId)).toBe(true);
    // The order of the turns holds: the follow-up went out only after the first turn's last attempt.
    expect(run.asks.findIndex((a) => a.input.rowId === 't2')).toBeGreaterThan(run.asks.findIndex((a) => a.attempt === 6));

    expect(run.result('t1')).toMatchObject({ outcome: Outcome.error, errorType: 'InternalServerError', error: '503 service_unavailable', sessionId });
    expect(run.result('t2')).toMatchObject({ outcome: Outcome.passed, feedback: 'good', sessionId });
    // One settle: the follow-up's feedback and the session's close together.
    expect(run.settles.map((s) => s.input)).toEqual([
      { siteId: 'demo', feedback: { sessionId, requestId: 'req-t2', value: 'good' }, closeSessionId: sessionId },
    ]);
    expect(result.summary).toMatchObject({ error: 1, passed: 1, sessions: { closed: 1, closeFailed: 0 } });
  });
});

describe('a cancelled run', () => {
  it('one cancel: the question in flight is answered, graded and its session closed; the rows not sent are `skipped`', async (ctx) => {
    const t = env(ctx);
    const held = new Gate();
    const run = new FakeRun([singleTurnUnits(['r1', 'r2', 'r3'])], {
      ask: async (input) => {
        if (input.rowId === 'r1') await held.opened;
        return answered(input);
      },
    });
    const result = await t.withWorkers(run.activities(), async () => {
      // One conversation at a time, so r2 and r3 wait behind r1.
      const handle = await start(t.client, { concurrency: 1 });
      try {
        await until(() => run.asks.length === 1, 'the first question');
        await handle.signal(cancelSignal);
        await until(() => chunkSignalled(t.client, handle.workflowId), 'the cancel to reach the chunk');
      } finally {
        held.open();
      }
      return handle.result();
    });

    expect(run.asks.map((a) => a.input.rowId)).toEqual(['r1']);
    expect(run.result('r1')).toMatchObject({ outcome: Outcome.passed, feedback: 'good' });
    for (const id of ['r2', 'r3']) expect(run.result(id)).toMatchObject({ outcome: Outcome.skipped, error: 'run cancelled before this row was sent' });
    expect(run.settles.map((s) => s.input.closeSessionId)).toEqual([run.asks[0]?.input.sessionId]);
    expect(result.cancelled).toBe(true);
    expect(result.summary).toMatchObject({ passed: 1, skipped: 2, total: 3, cancelled: true, sessions: { closed: 1 } });
  });

  it('a second cancel abandons the question in flight: `skipped` with why, nothing closed for it, nothing else asked', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1', 'r2'])], { ask: () => neverAnswers() });
    const result = await t.withWorkers(run.activities(), async () => {
      const handle = await start(t.client, { concurrency: 1 });
      await until(() => run.asks.length === 1, 'the first question');
      await handle.signal(cancelSignal);
      await handle.signal(cancelSignal);
      return handle.result();
    });

    expect(run.asks.map((a) => a.input.rowId)).toEqual(['r1']);
    expect(run.result('r1')).toMatchObject({ outcome: Outcome.skipped, error: 'run cancelled while waiting for the answer (it may have been asked)' });
    expect(run.result('r2')).toMatchObject({ outcome: Outcome.skipped, error: 'run cancelled before this row was sent' });
    expect(run.settles).toEqual([]);
    expect(outcomes(run)).toEqual({ [Outcome.skipped]: 2 });
    expect(result).toMatchObject({ cancelled: true, summary: { skipped: 2, total: 2, cancelled: true } });
  });
});

describe('settles in batches', () => {
  it('rows are settled and recorded a batch at a time: fewer activities than rows, each row once with its feedback, each session closed once', async (ctx) => {
    const t = env(ctx);
    const ids = Array.from({ length: 12 }, (_, i) => `r${i + 1}`);
    const run = new FakeRun([singleTurnUnits(ids)]);
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    for (const id of ids) expect(run.result(id)).toMatchObject({ outcome: Outcome.passed, feedback: 'good' });
    expect(run.settleBatches.length).toBeGreaterThan(1);
    expect(run.settleBatches.length).toBeLessThan(ids.length);
    expect(run.settleBatches.every((b) => b.input.items.length <= 10)).toBe(true);
    const closed = run.settles.map((s) => s.input.closeSessionId);
    expect(new Set(closed).size).toBe(ids.length);
    expect(result.summary).toMatchObject({ passed: 12, total: 12, sessions: { closed: 12, closeFailed: 0 } });
  });

  it('a page whose conversations all start at once settles its rows in batches of at most 10, each row once', async (ctx) => {
    const t = env(ctx);
    const ids = Array.from({ length: 30 }, (_, i) => `r${i + 1}`);
    // Every answer waits until the last question was sent, so they all come in together however loaded the machine:
    // the batches then depend on the workflow's rules alone, not on when each mocked ask happened to return.
    const allAsked = new Gate();
    let asked = 0;
    const run = new FakeRun([singleTurnUnits(ids)], {
      ask: async (input) => {
        if (++asked === ids.length) allAsked.open();
        await allAsked.opened;
        return answered(input);
      },
    });
    // A window as large as the page: the last conversation starts with the first, yet batches shrink to the tail's 3
    // rows only once fewer than 10 asked rows are left to settle.
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client, { concurrency: 30 })).result());

    // How many answers reach the workflow in one task is the test server's timing, not the workflow's rule (a loaded
    // machine delivered them so that only one batch of 10 formed): so rows are batched, never past 10, each once.
    const sizes = run.settleBatches.map((b) => b.input.items.length);
    expect(sizes.some((n) => n > 1)).toBe(true);
    expect(sizes.every((n) => n <= 10)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(ids.length);
    for (const id of ids) expect(run.result(id)).toMatchObject({ outcome: Outcome.passed, feedback: 'good' });
    expect(result.summary).toMatchObject({ passed: 30, total: 30, sessions: { closed: 30, closeFailed: 0 } });
  });

  it('a row that finishes while no batch is in flight is settled at once, not held for a fuller batch', async (ctx) => {
    const t = env(ctx);
    const ids = Array.from({ length: 12 }, (_, i) => `r${i + 1}`);
    const held = new Gate();
    const run = new FakeRun([singleTurnUnits(ids)], {
      ask: async (input) => {
        if (input.rowId !== 'r1') await held.opened;
        return answered(input);
      },
    });
    const result = await t.withWorkers(run.activities(), async () => {
      const handle = await start(t.client, { concurrency: 12 });
      try {
        // At the API's pace the feedback path has room for it now: held for a batch of 10 it would wait for nine more.
        await until(() => run.settleBatches.length === 1, 'the first row settled on its own');
      } finally {
        held.open();
      }
      return handle.result();
    });

    expect(run.settleBatches[0]?.input.items.map((i) => i.result.id)).toEqual(['r1']);
    // The others, finishing together, still share batches.
    expect(run.settleBatches.length).toBeLessThan(ids.length);
    expect(result.summary).toMatchObject({ passed: 12, total: 12, sessions: { closed: 12, closeFailed: 0 } });
  });

  it('a batch whose settle fails for good: its rows are recorded once, feedback `failed` with the reason, their sessions counted as not closed', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1', 'r2'])], {
      settle: async () => {
        throw ApplicationFailure.nonRetryable('feedback: 401 invalid api key', 'AuthenticationError');
      },
    });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    for (const id of ['r1', 'r2']) {
      expect(run.result(id)).toMatchObject({ outcome: Outcome.passed, feedback: 'failed' });
      expect(run.result(id).feedbackError).toContain('401 invalid api key');
    }
    // The give-up made no call: it ran once per failed batch, on the main queue, after the batch's one attempt.
    const gaveUp = run.settleBatches.filter((b) => b.input.gaveUp !== undefined);
    expect(gaveUp.length).toBeGreaterThan(0);
    expect(run.settleBatches.filter((b) => b.input.gaveUp === undefined)).toHaveLength(gaveUp.length);
    expect(result.summary).toMatchObject({ passed: 2, feedback: { failed: 2 }, sessions: { closed: 0, closeFailed: 2 } });
  });
});
