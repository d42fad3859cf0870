import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import type { AskResult, SettleItem, SettleRowsInput, SettleRowsResult } from '../../../activities/types';
import { PlanMetadata } from '../../../activities/planRows';
import type { PlanStore } from '../../../src/store/store';
import { SiteChatClient } from '../../../src/api';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { Outcome, type RowResult } from '../../../src/domain/results';
import { DEMO } from '../../../src/sim';
import { useAskHarness } from './askHarness';

/**
 * `settleRows` against the simulator over HTTP and a file store (issue 24): a batch's feedback and closes, each row
 * marked in the store as its calls end, so a retried batch sends nothing twice and a give-up records what was done.
 */
describe('settleRows: a batch of rows settled and recorded in one activity', () => {
  const h = useAskHarness('settle-rows-');

  async function setUp(runId: string, rows: number) {
    const store = new FileResultsStore(mkdtempSync(join(h.dir(), 'store-')));
    await store.init(runId, { runId, workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    // The rows' plan page holds no metadata columns: the rows are recorded as they come.
    const planMetadata = new PlanMetadata({ readPage: async () => [] } as unknown as PlanStore);
    const { activities, close } = createActivities(h.config(), { store, planMetadata });
    const items: SettleItem[] = [];
    for (let i = 0; i < rows; i++) {
      const rowId = `r${i}`;
      const answer: AskResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(activities.ask, { ...h.input(rowId, crypto.randomUUID()), runId });
      const result: RowResult = { id: rowId, index: i, line: i + 2, question: 'q', outcome: Outcome.passed, requestId: answer.requestId, sessionId: answer.sessionId };
      items.push({ result, feedback: { sessionId: answer.sessionId as string, requestId: answer.requestId as string, value: i % 2 === 0 ? 'good' : 'bad' }, closeSessionId: answer.sessionId });
    }
    const settle = (input: SettleRowsInput, attempt: number): Promise<SettleRowsResult> =>
      new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt }).run(activities.settleRows, input);
    const recorded = async (): Promise<RowResult[]> => {
      const out: RowResult[] = [];
      for await (const row of store.read(runId)) out.push(row);
      return out;
    };
    return { store, items, settle, recorded, close };
  }

  it('a close that fails after the feedback went out: the retry only closes, every feedback sent once, the rows recorded once', async () => {
    const s = await setUp('run-close', 3);
    const before = h.sim().stats();
    try {
      h.sim().setFaults({ 'sessions.close': { failRate: 1 } });
      const input: SettleRowsInput = { runId: 'run-close', page: 0, siteId: DEMO.siteId, items: s.items };
      await expect(s.settle(input, 1)).rejects.toThrow(/^close: /);
      expect(h.sim().stats().feedback - before.feedback).toBe(3);
      expect(await s.recorded()).toEqual([]);
      // Each row's feedback is marked, none of the closes.
      const marks = await s.store.getSettled('run-close', ['r0', 'r1', 'r2']);
      expect([...marks.values()].map((m) => [m.feedback, m.close])).toEqual([[{ ok: true }, undefined], [{ ok: true }, undefined], [{ ok: true }, undefined]]);

      h.sim().setFaults({});
      const res = await s.settle(input, 2);
      const after = h.sim().stats();
      expect(after.feedback - before.feedback).toBe(3);
      expect(after.sessions.closed - before.sessions.closed).toBe(3);
      expect(res.items).toEqual(s.items.map(() => ({ feedback: { ok: true }, close: { ok: true } })));
      const rows = await s.recorded();
      expect(rows.map((r) => [r.id, r.feedback])).toEqual([['r0', 'good'], ['r1', 'bad'], ['r2', 'good']]);
    } finally {
      h.sim().setFaults({});
      await s.close();
    }
  });

  it('a batch that ran past its deadline: the give-up calls nothing and records what the marks say, the rest failed with the reason', async () => {
    const s = await setUp('run-gave-up', 2);
    try {
      // The first row settled in an earlier batch attempt; the second row's feedback never got through.
      await s.store.recordSettled('run-gave-up', [{ rowId: 'r0', feedback: { ok: true }, close: { ok: true } }]);
      const before = h.sim().stats();
      const res = await s.settle({ runId: 'run-gave-up', page: 0, siteId: DEMO.siteId, items: s.items, gaveUp: 'feedback: 503 service_unavailable' }, 1);
      const after = h.sim().stats();
      expect(after.feedback).toBe(before.feedback);
      expect(after.sessions.closed).toBe(before.sessions.closed);
      expect(res.items).toEqual([
        { feedback: { ok: true }, close: { ok: true } },
        { feedback: { ok: false, error: 'feedback: 503 service_unavailable' }, close: { ok: false, error: 'not closed: the feedback before it kept failing (feedback: 503 service_unavailable)' } },
      ]);
      const rows = await s.recorded();
      expect(rows.map((r) => [r.id, r.feedback, r.feedbackError])).toEqual([['r0', 'good', undefined], ['r1', 'failed', 'feedback: 503 service_unavailable']]);
    } finally {
      await s.close();
    }
  });

  it('the turns of a conversation in one batch: the session is closed only after every turn\'s feedback came back', async () => {
    const store = new FileResultsStore(mkdtempSync(join(h.dir(), 'store-')));
    const runId = 'run-turns';
    await store.init(runId, { runId, workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    // The real client, its feedback and close calls logged as they start and end.
    const api = new SiteChatClient({ baseUrl: h.sim().baseUrl, apiKey: DEMO.apiKey });
    const log: string[] = [];
    const submit = api.feedback.submit.bind(api.feedback);
    api.feedback.submit = async (site, body, opts) => {
      log.push(`feedback ${body.request_id} start`);
      await new Promise((r) => setTimeout(r, body.request_id === first ? 300 : 0));
      const res = await submit(site, body, opts);
      log.push(`feedback ${body.request_id} end`);
      return res;
    };
    const close = api.chat.closeSession.bind(api.chat);
    api.chat.closeSession = async (site, sessionId, opts) => {
      log.push('close start');
      return close(site, sessionId, opts);
    };
    const planMetadata = new PlanMetadata({ readPage: async () => [] } as unknown as PlanStore);
    const built = createActivities(h.config(), { store, planMetadata, api });
    let first = '';
    try {
      const sessionId = crypto.randomUUID();
      const items: SettleItem[] = [];
      for (const rowId of ['t1', 't2']) {
        const answer: AskResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(built.activities.ask, { ...h.input(rowId, sessionId), runId });
        first ||= answer.requestId as string;
        items.push({
          result: { id: rowId, index: items.length, line: items.length + 2, question: 'q', outcome: Outcome.passed, requestId: answer.requestId, sessionId },
          feedback: { sessionId, requestId: answer.requestId as string, value: 'good' },
          ...(rowId === 't2' ? { closeSessionId: sessionId } : {}),
        });
      }
      await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(built.activities.settleRows, { runId, page: 0, siteId: DEMO.siteId, items });
      // The first turn's feedback is the slow one: the close still waits for it.
      expect(log.indexOf('close start')).toBeGreaterThan(log.indexOf(`feedback ${first} end`));
      expect(log.filter((l) => l.endsWith('start'))).toHaveLength(3);
    } finally {
      await built.close();
      await api.close();
    }
  });

  it('a full batch, its feedback and closes side by side on the activity\'s one signal, makes Node warn of nothing', async () => {
    const s = await setUp('run-full', 10);
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const res = await s.settle({ runId: 'run-full', page: 0, siteId: DEMO.siteId, items: s.items }, 1);
      expect(res.items.every((i) => i.feedback?.ok && i.close?.ok)).toBe(true);
      // Node emits its warnings on a later tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await s.close();
    }
  });

  it('a feedback the API refuses with 400 is recorded with its likely cause: a session id that is not a UUID', async () => {
    const store = new FileResultsStore(mkdtempSync(join(h.dir(), 'store-')));
    const runId = 'run-not-uuid';
    await store.init(runId, { runId, workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    const planMetadata = new PlanMetadata({ readPage: async () => [] } as unknown as PlanStore);
    const built = createActivities(h.config(), { store, planMetadata });
    try {
      const answer: AskResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(built.activities.ask, { ...h.input('a', 'thread-a'), runId });
      const item: SettleItem = {
        result: { id: 'a', index: 0, line: 2, question: 'q', outcome: Outcome.passed, requestId: answer.requestId, sessionId: 'thread-a' },
        feedback: { sessionId: 'thread-a', requestId: answer.requestId as string, value: 'good' },
      };
      const res: SettleRowsResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(built.activities.settleRows, { runId, page: 0, siteId: DEMO.siteId, items: [item] });
      const error = '400 feedback must be \'good\' or \'bad\' (likely cause: the session id "thread-a" is not a UUID (use UUIDs as session ids, or --feedback none); ' +
        'the API may refuse feedback for ids that are not UUIDs)';
      expect(res.items).toEqual([{ feedback: { ok: false, error } }]);
      const rows: RowResult[] = [];
      for await (const row of store.read(runId)) rows.push(row);
      expect(rows.map((r) => [r.feedback, r.feedbackError])).toEqual([['failed', error]]);
    } finally {
      await built.close();
    }
  });

  it('rows with no call are recorded as they are, with no lookup and no mark', async () => {
    const s = await setUp('run-plain', 0);
    try {
      const row: RowResult = { id: 'e1', index: 0, line: 2, question: 'q', outcome: Outcome.error, error: 'no answer' };
      const res = await s.settle({ runId: 'run-plain', page: 0, siteId: DEMO.siteId, items: [{ result: row }] }, 1);
      expect(res.items).toEqual([{}]);
      expect((await s.recorded()).map((r) => [r.id, r.outcome])).toEqual([['e1', Outcome.error]]);
      expect(await s.store.getSettled('run-plain', ['e1'])).toEqual(new Map());
    } finally {
      await s.close();
    }
  });
});
