import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import type { AskInput, AskResult } from '../../../activities/types';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { DEMO, type SimulatorHandle } from '../../../src/sim';
import { useAskHarness } from './askHarness';

/**
 * The request id lives in the results store, not only in the heartbeat: a retry whose heartbeat never reached the
 * server (a Temporal outage longer than the heartbeat timeout, a worker killed right after the submit) resumes
 * polling instead of asking again.
 */
describe('ask: a retry without heartbeat details', () => {
  const h = useAskHarness('ask-resume-');
  const input = (rowId: string): AskInput => h.input(rowId, '5f0c8a0e-1d7b-4c53-9a57-3c2f1f0b9a11');
  const sim = (): SimulatorHandle => h.sim();

  it('polls the request the store names, and counts a send whose response was lost', async () => {
    const store = new FileResultsStore(h.dir());
    await store.init('run-1', { runId: 'run-1', workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    const { activities, close } = createActivities(h.config(), { store });
    try {
      // Attempt 1 asks; its heartbeat never reaches the server.
      const first: AskResult = await new MockActivityEnvironment({ attempt: 1 }).run(activities.ask, input('r1'));
      expect(first.status).toBe('completed');
      expect(sim().stats().submitted).toBe(1);
      // Attempt 2 (no heartbeat details) finds the request id in the store and asks nothing.
      const second: AskResult = await new MockActivityEnvironment({ attempt: 2 }).run(activities.ask, input('r1'));
      expect(second).toMatchObject({ status: 'completed', requestId: first.requestId, answer: first.answer });
      expect(sim().stats().submitted).toBe(1);
      expect(await store.getSubmission('run-1', 'r1')).toMatchObject({ sends: 1, requestId: first.requestId });

      // A send whose outcome is unknown (recorded, no request id) is counted: the retry may ask a second time.
      await store.recordSubmission('run-1', { rowId: 'r2', sends: 1 });
      await new MockActivityEnvironment({ attempt: 2 }).run(activities.ask, input('r2'));
      expect(await store.getSubmission('run-1', 'r2')).toMatchObject({ sends: 2, requestId: expect.any(String) });
      expect(sim().stats().submitted).toBe(2);
    } finally {
      await close();
    }
  });
});
