import type { Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../src/worker/apiGuard';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { evaluationRun } from '../../workflows';
import { FakeRun, Outcome, answered, runInput, singleTurnUnits, useWorkflowTestEnv } from './harness';

/**
 * A run that names its API (`RunOptions.api`): every API call carries it, and a call that a worker of another API
 * refused on its first attempt is scheduled again (workflows/apiRouting.ts) until a worker of the run's API takes it,
 * or the run gives up saying which APIs were involved. The refusals are made as a worker of the other API makes them.
 */
const env = useWorkflowTestEnv();

const RUN_API = 'https://chat.example.com/api/v1';
const OTHER_API = 'http://127.0.0.1:8787/api/v1';

let runs = 0;
function start(client: Client) {
  const id = `wf-api-${++runs}`;
  return client.workflow.start(evaluationRun, { taskQueue: TaskQueue.main, workflowId: id, args: [runInput(id, { api: RUN_API })] });
}

/** What a worker of OTHER_API throws for a task of this run on its first attempt. */
function refused(what: string): ApplicationFailure {
  return refusal(RUN_API, OTHER_API, 1, what) as ApplicationFailure;
}

describe('one run, one API', () => {
  it('a call refused by a worker of another API is asked again, with the run\'s API, and answered once', async (ctx) => {
    const t = env(ctx);
    let refusals = 0;
    const run = new FakeRun([singleTurnUnits(['r1', 'r2'])], {
      ask: async (input) => {
        if (input.rowId === 'r1' && refusals < 3) {
          refusals += 1;
          throw refused('ask');
        }
        return answered(input);
      },
    });
    const result = await t.withWorkers(run.activities(), async () => (await start(t.client)).result());

    expect(run.asks.filter((a) => a.input.rowId === 'r1')).toHaveLength(4);
    for (const a of run.asks) expect(a.input).toMatchObject({ api: RUN_API });
    for (const s of run.settleBatches) expect(s.input).toMatchObject({ api: RUN_API });
    for (const id of ['r1', 'r2']) expect(run.result(id)).toMatchObject({ outcome: Outcome.passed, feedback: 'good' });
    expect(result.summary).toMatchObject({ passed: 2, error: 0 });
  });

  it('with no worker of the run\'s API, the run gives up after 20 refusals, naming both APIs, and asks nothing', async (ctx) => {
    const t = env(ctx);
    const run = new FakeRun([singleTurnUnits(['r1', 'r2'])]);
    let preflights = 0;
    const activities = {
      ...run.activities(),
      preflight: async () => {
        preflights += 1;
        throw refused('preflight');
      },
    };
    const failure = await t.withWorkers(activities, async () => (await start(t.client)).result().then(() => undefined, (err: unknown) => err));

    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(String((failure as WorkflowFailedError).cause?.message)).toContain(
      `no worker of the run's API (${RUN_API}) took the call: workers asking ${OTHER_API} refused it 20 times`,
    );
    expect(preflights).toBe(20);
    expect(run.asks).toEqual([]);
    for (const id of ['r1', 'r2']) expect(run.result(id)).toMatchObject({ outcome: Outcome.error, error: expect.stringContaining(`no worker of the run's API (${RUN_API})`) as unknown });
  });
});
