import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { evaluationRun } from '../../workflows';
import { progressQuery } from '../../workflows/signals';
import { FakeRun, Gate, Outcome, useWorkflowTestEnv, outcomes, runInput, settledOk, singleTurnUnits, until, type RunActivityMocks } from './harness';

const env = useWorkflowTestEnv();

/** The run's history once it has handled everything that reached it (no workflow task pending). */
async function quietHistory(handle: WorkflowHandle): Promise<temporal.api.history.v1.IHistoryEvent[]> {
  let events: temporal.api.history.v1.IHistoryEvent[] = [];
  await until(async () => {
    events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.filter((e) => e.workflowTaskScheduledEventAttributes).length;
    const ended = events.filter((e) => e.workflowTaskCompletedEventAttributes || e.workflowTaskFailedEventAttributes || e.workflowTaskTimedOutEventAttributes).length;
    return scheduled > 0 && scheduled === ended;
  }, 'the run to handle its pending events');
  return events;
}

/**
 * A chunk hands its place on once it has sent its last question, but stays open until its feedback and closes are
 * done. The run keeps at most 8 chunks open (workflows/run.ts): with every settle held, 12 one-row pages start 8
 * chunks and no more, and the rest start once those finish.
 */
describe('the open-chunks bound (mocked activities)', () => {
  it('12 pages whose settles are held: 8 chunks start, the run waits, and every row is recorded once they go on', async (ctx) => {
    const t = env(ctx);
    const pages = Array.from({ length: 12 }, (_, p) => singleTurnUnits([`r${p + 1}`]));
    const held = new Gate();
    const run = new FakeRun(pages, {
      settle: async (input) => {
        await held.opened;
        return settledOk(input);
      },
    });
    // Open = from a chunk reading its page until its rows are recorded (after its settles): never above the bound.
    const base = run.activities();
    let open = 0;
    let peak = 0;
    const activities: RunActivityMocks = {
      ...base,
      readPage: async (input) => {
        peak = Math.max(peak, ++open);
        return base.readPage(input);
      },
      settleRows: async (input) => {
        const settled = await base.settleRows(input);
        open -= 1;
        return settled;
      },
    };

    const result = await t.withWorkers(activities, async () => {
      const id = 'open-chunks';
      const handle = await t.client.workflow.start(evaluationRun, { taskQueue: TaskQueue.main, workflowId: id, args: [runInput(id, { concurrency: 2 })] });
      try {
        // Every open chunk has sent its question and holds its settle; each has told the run it is drained.
        await until(() => run.settles.length === 8, 'eight held settles');
        const events = await quietHistory(handle);
        expect(events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toHaveLength(8);
        expect((await handle.query(progressQuery)).chunksOpen).toBe(8);
        expect([...run.pagesRead].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      } finally {
        held.open();
      }
      return handle.result();
    });

    expect(peak).toBe(8);
    expect([...run.pagesRead].sort((a, b) => a - b)).toEqual(pages.map((_, p) => p));
    expect(outcomes(run)).toEqual({ [Outcome.passed]: 12 });
    for (let p = 1; p <= 12; p++) expect(run.result(`r${p}`).feedback).toBe('good');
    expect(result.summary).toMatchObject({ total: 12, passed: 12, missing: 0, sessions: { closed: 12, closeFailed: 0 } });
  });
});
