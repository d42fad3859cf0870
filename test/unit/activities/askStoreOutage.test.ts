import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import type { AskHeartbeat, AskInput, AskResult } from '../../../activities/types';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { StoreUnavailableError } from '../../../src/store/errors';
import type { Submission } from '../../../src/domain/results';
import { DEMO, type SimulatorHandle } from '../../../src/sim';
import type { WorkerConfig } from '../../../src/temporal/workerConfig';
import { useAskHarness } from './askHarness';

/** A file store whose submission records fail as an unreachable database does, while `failures` lasts. */
class FlakyStore extends FileResultsStore {
  failures = 0;
  writes: Submission[] = [];
  override async recordSubmission(runId: string, submission: Submission): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new StoreUnavailableError('results store (postgres://x@db/runs): connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    }
    this.writes.push(submission);
    await super.recordSubmission(runId, submission);
  }
}

/**
 * The ask activity and a results store that cannot be reached (issue "nothing lost and nothing asked twice"): once
 * the API has accepted a question, a store failure must not make a retry ask again, and a send is counted only
 * when it may have reached the API.
 */
describe('ask: the results store unreachable', () => {
  const h = useAskHarness('ask-store-');
  const input = (rowId: string): AskInput => h.input(rowId, '7a0c8a0e-1d7b-4c53-9a57-3c2f1f0b9a12');
  const sim = (): SimulatorHandle => h.sim();
  const config = (): WorkerConfig => h.config();
  const freshStore = async (): Promise<FlakyStore> => {
    const store = new FlakyStore(mkdtempSync(join(h.dir(), 'store-')));
    await store.init('run-1', { runId: 'run-1', workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    return store;
  };

  it('heartbeats the request id when the store fails and waits for the store instead of failing after the API accepted', async () => {
    const store = await freshStore();
    const { activities, close } = createActivities(config(), { store });
    const before = sim().stats().submitted;
    try {
      const env = new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 });
      const beats: unknown[] = [];
      env.on('heartbeat', (d: unknown) => beats.push(d));
      // The count before the send succeeds; the record of the accepted request fails three times.
      let calls = 0;
      const record = store.recordSubmission.bind(store);
      store.recordSubmission = async (runId, s) => {
        calls += 1;
        if (calls === 2) store.failures = 3;
        return record(runId, s);
      };
      const result: AskResult = await env.run(activities.ask, input('r1'));
      expect(result.status).toBe('completed');
      expect(sim().stats().submitted - before).toBe(1);
      // The request id reached the heartbeat before the store, and the store once it was back.
      expect((beats.find((b) => (b as AskHeartbeat | undefined)?.requestId) as AskHeartbeat).requestId).toBe(result.requestId);
      expect(await store.getSubmission('run-1', 'r1')).toMatchObject({ sends: 1, requestId: result.requestId });
    } finally {
      await close();
    }
  });

  it('sends no heartbeat when the store keeps the request id at once (heartbeats are billed actions)', async () => {
    const store = await freshStore();
    const { activities, close } = createActivities(config(), { store });
    try {
      const env = new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 });
      const beats: unknown[] = [];
      env.on('heartbeat', (d: unknown) => beats.push(d));
      const result: AskResult = await env.run(activities.ask, input('r5'));
      expect(result.status).toBe('completed');
      expect(beats).toEqual([]);
      expect(await store.getSubmission('run-1', 'r5')).toMatchObject({ sends: 1, requestId: result.requestId });
    } finally {
      await close();
    }
  });

  it('sends nothing while the send cannot be counted, and asks once when the store is back', async () => {
    const store = await freshStore();
    store.failures = 2;
    const { activities, close } = createActivities(config(), { store });
    const before = sim().stats().submitted;
    try {
      const result: AskResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(activities.ask, input('r2'));
      expect(result.status).toBe('completed');
      expect(sim().stats().submitted - before).toBe(1);
      // Waited outside the pacer's turn (rewriting the count of 0), then counted the one send and recorded its request id.
      expect(store.writes.map((w) => w.sends)).toEqual([0, 1, 1]);
    } finally {
      await close();
    }
  });

  it('gives up with StoreUnavailableError, having asked nothing, when the store stays away past the limit', async () => {
    const store = await freshStore();
    store.failures = Number.POSITIVE_INFINITY;
    const { activities, close } = createActivities(config(), { store, storeOutageLimitMs: 1_500 });
    const before = sim().stats().submitted;
    try {
      await expect(new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(activities.ask, input('r3'))).rejects.toMatchObject({ type: 'StoreUnavailableError', nonRetryable: true });
      expect(sim().stats().submitted - before).toBe(0);
    } finally {
      await close();
    }
  });

  it('leaves the time nobody watched out of the latency of an answer a resumed attempt finds done', async () => {
    const store = await freshStore();
    const { activities, close } = createActivities(config(), { store });
    try {
      const first: AskResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(activities.ask, input('r4'));
      // As if the first attempt's completion never reached Temporal: its last heartbeat saw the request open 60 s
      // after the submit, and the retry came 5 min later.
      const submittedAtMs = Date.now() - 360_000;
      const beat: AskHeartbeat = { requestId: first.requestId as string, sessionId: first.sessionId as string, submittedAtMs, seenOpenAtMs: submittedAtMs + 60_000 };
      const resumed: AskResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 2, heartbeatDetails: beat }).run(activities.ask, input('r4'));
      expect(resumed.status).toBe('completed');
      expect(resumed.latencyUnobservedMs).toBeGreaterThanOrEqual(299_000);
      expect(resumed.latencyMs).toBeGreaterThanOrEqual(60_000);
      expect(resumed.latencyMs).toBeLessThan(70_000);
    } finally {
      await close();
    }
  });
});
