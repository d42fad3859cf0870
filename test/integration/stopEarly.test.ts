import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { FIRST_ASKS } from '../../src/domain/stopEarly';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

/** Pages of the plan hold 100 conversations (activities/plan.ts PAGE_SIZE): 250 rows are three chunks, two asking at once. */
const ROWS = 250;
const CONCURRENCY = 10;

describe('a run stopped by its first asks\' refusal (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('page 0 stops the other chunks too: the API sees the first questions and those in flight, every other row is skipped with the reason', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => `r${i + 1},How much does the Personal plan cost? (${i + 1}),no-such-model,$9.99`);
    const handle = await startRun(stack, writeDataset(stack, 'id,question,model,must_include', rows), { concurrency: CONCURRENCY });
    const failure = await handle.result().then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe('RunAborted');
    expect((cause as ApplicationFailure).message).toMatch(new RegExp(`^the first ${FIRST_ASKS} questions all got 400 invalid payload`));
    expect((cause as ApplicationFailure).details).toMatchObject([{ usage: true, cause: { status: 400, error: 'invalid payload', type: 'BadRequestError' } }]);

    // Page 0's first questions and those in flight; page 1 asks at the same time and has sent about as many before the
    // stop reaches it (a one-page run stays within FIRST_ASKS + --concurrency: test/cli/stopEarly.test.ts); page 2 never starts.
    const asked = Object.values(stack.sim.stats().requests['chat.async'] ?? {}).reduce((a, b) => a + b, 0);
    expect(asked).toBeLessThanOrEqual(3 * (FIRST_ASKS + CONCURRENCY));
    const reportDir = /\(reports written to (.+)\)$/u.exec((cause as ApplicationFailure).message)?.[1] as string;
    const results = readResults(reportDir);
    expect(results).toHaveLength(ROWS);
    expect(results.filter((r) => r.outcome !== 'error' && r.outcome !== 'skipped')).toEqual([]);
    expect(results.filter((r) => r.outcome === 'error').length).toBeLessThanOrEqual(asked);
    // Rows of page 1 (r101…r200) that were never sent say why, as page 0's and page 2's do.
    const page1 = results.filter((r) => r.index >= 100 && r.index < 200 && r.outcome === 'skipped');
    expect(page1.length).toBeGreaterThan(0);
    const reasons = new Set(results.filter((r) => r.outcome === 'skipped').map((r) => r.error?.replace(/^(not sent|stopped while waiting for the answer \(it may have been asked\)): /u, '')));
    expect([...reasons]).toEqual([(cause as ApplicationFailure).message.replace(/ \(reports written to .+\)$/u, '')]);
  });
});
