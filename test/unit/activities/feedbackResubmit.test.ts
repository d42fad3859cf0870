import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import { PlanMetadata } from '../../../activities/planRows';
import type { SettleRowsInput } from '../../../activities/types';
import { SiteChatClient } from '../../../src/api';
import type { PlanStore } from '../../../src/store/store';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { Outcome, type RowResult } from '../../../src/domain/results';
import { DEMO, startSimulator, type FeedbackResubmit, type SimulatorHandle } from '../../../src/sim';

/**
 * A feedback whose answer was lost is sent again by the retry of its batch: the server sees the same value twice.
 * The spec says both "the original submission time is returned" and "the timestamp is omitted" (§4.6); the runner
 * records the row's feedback either way (docs/api-decisions-client.md).
 */
describe.each<FeedbackResubmit>(['original', 'omit'])("settleRows after a lost feedback answer, feedbackResubmit '%s'", (feedbackResubmit) => {
  let sim: SimulatorHandle;
  let dir: string;
  beforeAll(async () => {
    sim = await startSimulator({ rateLimit: 0, latencyScale: 0.01, feedbackResubmit });
    dir = mkdtempSync(join(tmpdir(), 'feedback-resubmit-'));
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the retry sends it again and the row is recorded with its feedback, its session closed', async () => {
    const client = new SiteChatClient({ baseUrl: sim.baseUrl, apiKey: DEMO.apiKey });
    const sessionId = crypto.randomUUID();
    const { request_id } = await client.chat.submit(DEMO.siteId, { message: 'How much does the Personal plan cost?', session_id: sessionId });
    sim.advanceTime(31_000);
    await client.close();

    const runId = `run-${feedbackResubmit}`;
    const store = new FileResultsStore(join(dir, 'store'));
    await store.init(runId, { runId, workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    const planMetadata = new PlanMetadata({ readPage: async () => [] } as unknown as PlanStore);
    const config = {
      baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, runsDir: dir, ratePerSecond: 0, pollIntervalMs: 20, maxConcurrentAsks: 1, pollScope: 'path' as const,
      egressIps: 1, siteRates: {}, pacerDir: join(dir, '.pacer'),
    };
    const { activities, close } = createActivities(config, { store, planMetadata });
    const result: RowResult = { id: 'r0', index: 0, line: 2, question: 'q', outcome: Outcome.passed, requestId: request_id, sessionId };
    const input: SettleRowsInput = { runId, page: 0, siteId: DEMO.siteId, items: [{ result, feedback: { sessionId, requestId: request_id, value: 'good' }, closeSessionId: sessionId }] };
    const settle = (attempt: number) => new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt }).run(activities.settleRows, input);
    try {
      sim.setFaults({ 'feedback.submit': { dropRate: 1 } });
      await expect(settle(1)).rejects.toThrow(/^feedback: /);
      sim.setFaults({});
      expect(await settle(2)).toMatchObject({ items: [{ feedback: { ok: true }, close: { ok: true } }] });
      expect(sim.stats().feedback).toBe(2);
      const rows: RowResult[] = [];
      for await (const row of store.read(runId)) rows.push(row);
      expect(rows.map((r) => [r.id, r.feedback, r.feedbackError])).toEqual([['r0', 'good', undefined]]);
    } finally {
      await close();
    }
  });
});
