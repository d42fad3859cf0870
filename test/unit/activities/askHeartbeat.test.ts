import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import type { AskHeartbeat, AskResult } from '../../../activities/types';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { DEMO } from '../../../src/sim';
import { useAskHarness } from './askHarness';

/**
 * When a slow answer makes the ask heartbeat (each heartbeat is a billed action): once the answer has taken half the
 * attempt's own heartbeat timeout, whatever timeout the workflow scheduled it with (60 s now, 20 s before).
 */
describe('ask: heartbeats of a slow answer follow the attempt\'s heartbeat timeout', () => {
  const h = useAskHarness('ask-heartbeat-');
  afterEach(() => h.sim().setFaults({}));

  async function askWith(heartbeatTimeoutMs: number, rowId: string, mode: 'async' | 'sync' = 'async'): Promise<{ result: AskResult; beats: (AskHeartbeat | undefined)[] }> {
    // Every async answer takes 1.5 s; a sync one 0.45 s (the harness's simulator ends a sync call at 60 s × 0.01).
    h.sim().setFaults({ 'chat.async': { processingDelayMs: 1_500 }, 'chat.sync': { processingDelayMs: 450 } });
    const store = new FileResultsStore(mkdtempSync(join(h.dir(), 'store-')));
    await store.init('run-1', { runId: 'run-1', workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    const { activities, close } = createActivities(h.config(), { store });
    try {
      const env = new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1, heartbeatTimeoutMs });
      const beats: (AskHeartbeat | undefined)[] = [];
      env.on('heartbeat', (d: unknown) => beats.push(d as AskHeartbeat | undefined));
      const result: AskResult = await env.run(activities.ask, { ...h.input(rowId, `0b1e6c2a-5f0e-4c1d-9a7b-${rowId.padStart(12, '0')}`), mode });
      return { result, beats };
    } finally {
      await close();
    }
  }

  it('a 1.5 s answer under a 1 s heartbeat timeout: heartbeats from 0.5 s on, each naming the request', async () => {
    const { result, beats } = await askWith(1_000, 'r1');
    expect(result.status).toBe('completed');
    expect(beats.length).toBeGreaterThanOrEqual(1);
    for (const b of beats) expect(b?.requestId).toBe(result.requestId);
  });

  it('the same answer under a 60 s heartbeat timeout: no heartbeat', async () => {
    const { result, beats } = await askWith(60_000, 'r2');
    expect(result.status).toBe('completed');
    expect(beats).toEqual([]);
  });

  // A sync answer holds the attempt in one HTTP call (up to the API's 60 s ceiling): without a heartbeat past half
  // the timeout, Temporal would time the attempt out and its retry would ask again.
  it('a 0.45 s sync answer under a 0.3 s heartbeat timeout: the attempt heartbeats while it waits in one call', async () => {
    const { result, beats } = await askWith(300, 'r3', 'sync');
    expect(result.status).toBe('completed');
    expect(result.latencyMs).toBeGreaterThanOrEqual(450);
    expect(beats.length).toBeGreaterThanOrEqual(1);
    // Liveness only: a sync call has no request id until it answers.
    expect(beats.every((b) => b === undefined)).toBe(true);
  });

  it('the same sync answer under a 60 s heartbeat timeout: no heartbeat', async () => {
    const { result, beats } = await askWith(60_000, 'r4', 'sync');
    expect(result.status).toBe('completed');
    expect(beats).toEqual([]);
  });
});
