import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import type { AskInput, AskResult } from '../../../activities/types';
import { FileResultsStore } from '../../../src/reports';
import { DEMO, startSimulator, type SimulatorHandle } from '../../../src/sim';
import type { WorkerConfig } from '../../../src/temporal/workerConfig';

/**
 * The request id lives in the results store, not only in the heartbeat: a retry whose heartbeat never reached the
 * server (a Temporal outage longer than the heartbeat timeout, a worker killed right after the submit) resumes
 * polling instead of asking again.
 */
describe('ask: a retry without heartbeat details', () => {
  let sim: SimulatorHandle;
  let dir: string;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyScale: 0.01, rateLimit: 0 });
    dir = mkdtempSync(join(tmpdir(), 'ask-resume-'));
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (): WorkerConfig => ({
    baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, runsDir: dir, ratePerSecond: 0, pollIntervalMs: 20, maxConcurrentAsks: 1, pollScope: 'path',
    egressIps: 1, siteRates: {}, pacerDir: join(dir, '.pacer'),
  });
  const input = (rowId: string): AskInput => ({
    runId: 'run-1', rowId, siteId: DEMO.siteId, mode: 'async', message: 'How much does the Personal plan cost?',
    sessionId: '5f0c8a0e-1d7b-4c53-9a57-3c2f1f0b9a11', answerTimeoutMs: 10_000,
  });

  it('polls the request the store names, and counts a send whose response was lost', async () => {
    const store = new FileResultsStore(dir);
    await store.init('run-1', { runId: 'run-1', workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    const { activities, close } = createActivities(config(), { store });
    try {
      // Attempt 1 asks; its heartbeat never reaches the server.
      const first: AskResult = await new MockActivityEnvironment({ attempt: 1 }).run(activities.ask, input('r1'));
      expect(first.status).toBe('completed');
      expect(sim.stats().submitted).toBe(1);
      // Attempt 2 (no heartbeat details) finds the request id in the store and asks nothing.
      const second: AskResult = await new MockActivityEnvironment({ attempt: 2 }).run(activities.ask, input('r1'));
      expect(second).toMatchObject({ status: 'completed', requestId: first.requestId, answer: first.answer });
      expect(sim.stats().submitted).toBe(1);
      expect(await store.getSubmission('run-1', 'r1')).toMatchObject({ sends: 1, requestId: first.requestId });

      // A send whose outcome is unknown (recorded, no request id) is counted: the retry may ask a second time.
      await store.recordSubmission('run-1', { rowId: 'r2', sends: 1 });
      await new MockActivityEnvironment({ attempt: 2 }).run(activities.ask, input('r2'));
      expect(await store.getSubmission('run-1', 'r2')).toMatchObject({ sends: 2, requestId: expect.any(String) });
      expect(sim.stats().submitted).toBe(2);
    } finally {
      await close();
    }
  });
});
