import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import type { AskInput, AskResult } from '../../../activities/types';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { DEMO } from '../../../src/sim';
import { useAskHarness } from './askHarness';

/**
 * Counting every send that may have reached the API (`askedTwice`): a send stays counted unless a 4xx says nothing was
 * created, so the send after a 5xx, a proxy's 502 page or a reset is a possible second ask. And a sync chat's 5xx with
 * the API's own error is a failed request for the workflow to re-ask, not an attempt to retry in place.
 */
describe('ask: counting sends', () => {
  const h = useAskHarness('ask-counting-');
  let store: FileResultsStore;
  let ask: ReturnType<typeof createActivities>['activities']['ask'];
  let close: () => Promise<void>;
  let row = 0;
  const input = (extra: Partial<AskInput> = {}): AskInput => ({ ...h.input(`r${++row}`, crypto.randomUUID()), ...extra });
  const attempt = (n: number, i: AskInput): Promise<AskResult> => new MockActivityEnvironment({ attempt: n }).run(ask, i);
  const sends = async (i: AskInput) => (await store.getSubmission('run-1', i.rowId))?.sends;

  beforeAll(async () => {
    store = new FileResultsStore(h.dir());
    await store.init('run-1', { runId: 'run-1', workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    ({ activities: { ask }, close } = createActivities(h.config(), { store }));
  });
  afterAll(async () => close());

  it('async submit: a 502 page after acceptance keeps the send counted, so the retry is a second send', async () => {
    const i = input();
    h.sim().setFaults({ 'chat.async': { badGatewayAfterAcceptRate: 1 } });
    await expect(attempt(1, i)).rejects.toMatchObject({ type: 'InternalServerError', nonRetryable: false });
    expect(await sends(i)).toBe(1);
    h.sim().setFaults({});
    expect(await attempt(2, i)).toMatchObject({ status: 'completed' });
    expect(await sends(i)).toBe(2);
  });

  it('async submit: a reset after acceptance keeps the send counted too', async () => {
    const i = input();
    h.sim().setFaults({ 'chat.async': { dropRate: 1 } });
    await expect(attempt(1, i)).rejects.toMatchObject({ type: 'APIConnectionError' });
    h.sim().setFaults({});
    await attempt(2, i);
    expect(await sends(i)).toBe(2);
  });

  it('async submit: a 429 created nothing, so its send is taken back', async () => {
    const i = input();
    h.sim().setFaults({ 'chat.async': { rateLimitBurst: 1 } });
    await expect(attempt(1, i)).rejects.toMatchObject({ type: 'RateLimitError' });
    expect(await sends(i)).toBe(0);
    await attempt(2, i);
    expect(await sends(i)).toBe(1);
  });

  it("sync chat: a 500 with the API's error is a failed request to re-ask (the send counted once), not retried in place", async () => {
    const i = input({ mode: 'sync' });
    h.sim().setFaults({ 'chat.sync': { transientFailRate: 1 } });
    try {
      expect(await attempt(1, i)).toMatchObject({ status: 'failed', serviceError: 'failed to call rag service', sessionId: i.sessionId, error: '500 failed to call rag service' });
    } finally {
      h.sim().setFaults({});
    }
    expect(await sends(i)).toBe(1);
  });

  it("sync chat: a 502 page is no word of the API's: retried in place, and the retry counts as a second send", async () => {
    const i = input({ mode: 'sync' });
    h.sim().setFaults({ 'chat.sync': { badGatewayAfterAcceptRate: 1 } });
    await expect(attempt(1, i)).rejects.toMatchObject({ type: 'InternalServerError', nonRetryable: false });
    h.sim().setFaults({});
    expect(await attempt(2, i)).toMatchObject({ status: 'completed' });
    expect(await sends(i)).toBe(2);
  });

  it('a re-ask counts its own sends, never polls the failed request, and keeps an earlier second send counted', async () => {
    const i = input();
    // The first ask was sent twice (a lost response), and its request failed.
    await store.recordSubmission('run-1', { rowId: i.rowId, sends: 2, requestId: '00000000-0000-4000-8000-000000000000', sessionId: i.sessionId as string, submittedAtMs: Date.now() });
    const submitted = h.sim().stats().submitted;
    // Its re-ask's second attempt (the first died before its heartbeat) finds the earlier ask's record: it asks anew.
    const answer = await attempt(2, { ...i, ask: 1 });
    expect(answer).toMatchObject({ status: 'completed' });
    expect(answer.requestId).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(h.sim().stats().submitted).toBe(submitted + 1);
    expect(await store.getSubmission('run-1', i.rowId)).toMatchObject({ sends: 1, ask: 1, earlierExtraSends: 1, earlierUnknown: true, requestId: answer.requestId });
  });

  it('a re-ask after a first ask sent once is not a second send', async () => {
    const i = input();
    await store.recordSubmission('run-1', { rowId: i.rowId, sends: 1, requestId: '00000000-0000-4000-8000-000000000001', sessionId: i.sessionId as string, submittedAtMs: Date.now() });
    await attempt(1, { ...i, ask: 1 });
    const record = await store.getSubmission('run-1', i.rowId);
    expect(record).toMatchObject({ sends: 1, ask: 1 });
    expect(record?.earlierExtraSends).toBeUndefined();
    expect(record?.earlierUnknown).toBeUndefined();
  });
});
