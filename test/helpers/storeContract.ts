/**
 * The behaviour every `ResultsStore` owes its callers, run against each implementation (file, PostgreSQL), so a
 * cluster's store cannot drift from the single-machine one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { labelKey } from '../../src/labels/key';
import type { Label } from '../../src/domain/label';
import type { ResultsStore } from '../../src/store/store';
import { summarize } from '../../src/analysis/summary';
import { collect, meta, row } from '../unit/reports/fixtures';

/** A label of `site-1` with its key computed from its fields. */
export function label(question: string, overrides: Partial<Label> = {}): Label {
  const fields = { siteId: 'site-1', question, references: ['Paris'], answer: 'paris is the capital', ...overrides };
  return { key: labelKey(fields), verdict: 'pass', at: '2025-01-01T00:00:00.000Z', ...fields, ...overrides };
}

export interface StoreUnderTest {
  store: ResultsStore;
  /** Another instance on the same storage, as a second worker process would open it. */
  other(): ResultsStore;
  cleanup(): Promise<void>;
}

export function storeContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`${name} (ResultsStore contract)`, () => {
    let ctx: StoreUnderTest;
    const store = (): ResultsStore => ctx.store;

    beforeEach(async () => {
      ctx = await open();
      await store().init('run-1', meta());
    });
    afterEach(() => ctx.cleanup());

    it('keeps the first meta when init is repeated (replayed workflow)', async () => {
      await store().init('run-1', meta({ startedAt: '2030-01-01T00:00:00.000Z' }));
      expect(await store().getMeta('run-1')).toEqual(meta());
      expect(await store().getMeta('nope')).toBeUndefined();
    });

    it('rejects meta for another run id and incomplete meta', async () => {
      await expect(store().init('run-2', meta())).rejects.toThrow(/does not match/);
      await expect(store().init('run-3', meta({ runId: 'run-3', siteId: '' }))).rejects.toThrow('run meta: `siteId` must be a non-empty string');
    });

    it('stores the same batch twice only once', async () => {
      const batch = [row(0), row(1), row(2)];
      await store().append('run-1', batch);
      await store().append('run-1', batch);
      expect(await collect(store().read('run-1'))).toEqual(batch);
    });

    it('lets the last write win for overlapping retried batches, and inside one batch', async () => {
      await store().append('run-1', [0, 1, 2, 3, 4].map((i) => row(i)));
      await store().append('run-1', [3, 4, 5, 6].map((i) => row(i, { outcome: 'failed' })));
      await store().append('run-1', [row(6, { outcome: 'error' }), row(6, { outcome: 'timed_out' })]);
      const rows = await collect(store().read('run-1'));
      expect(rows.map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
      expect(rows.map((r) => r.outcome)).toEqual(['passed', 'passed', 'passed', 'failed', 'failed', 'failed', 'timed_out']);
    });

    it('gets one row as written last, for a second instance too; nothing for an unknown row or run', async () => {
      await store().append('run-1', [row(0), row(1), row(2)]);
      await store().append('run-1', [row(1, { outcome: 'failed' })]);
      await store().append('run-1', [row(1, { outcome: 'error', error: 'last' })]);
      expect(await store().getRow('run-1', 'r1')).toEqual(row(1, { outcome: 'error', error: 'last' }));
      expect(await ctx.other().getRow('run-1', 'r2')).toEqual(row(2));
      expect(await store().getRow('run-1', 'r9')).toBeUndefined();
      expect(await store().getRow('nope', 'r1')).toBeUndefined();
    });

    it('reads in dataset order (index, then id) whatever the append order', async () => {
      await store().append('run-1', [row(5), row(2), row(2, { id: 'b' }), row(2, { id: 'a' })]);
      await store().append('run-1', [row(9), row(0), row(7)]);
      expect((await collect(store().read('run-1'))).map((r) => `${r.index}:${r.id}`)).toEqual(['0:r0', '2:a', '2:b', '2:r2', '5:r5', '7:r7', '9:r9']);
    });

    it('keeps every row of concurrent appends, and a second instance reads them all', async () => {
      const long = 'x'.repeat(20_000);
      await Promise.all(
        Array.from({ length: 20 }, (_, b) => store().append('run-1', Array.from({ length: 50 }, (_, i) => row(b * 50 + i, { answer: long })))),
      );
      const rows = await collect(ctx.other().read('run-1'));
      expect(rows.map((r) => r.index)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      expect(rows.every((r) => r.answer === long)).toBe(true);
    });

    it('refuses rows for an unknown run and invalid rows', async () => {
      await expect(store().append('nope', [row(0)])).rejects.toThrow(/run nope was not initialised/);
      await expect(store().append('run-1', [row(0), row(1, { id: '' })])).rejects.toThrow('results batch item 1: `id` must be a non-empty string');
      await expect(store().append('run-1', [row(0, { index: -1 })])).rejects.toThrow(/`index` must be a non-negative integer/);
      expect(await collect(store().read('run-1'))).toEqual([]);
    });

    it('reads nothing before the first append, and nothing of an unknown run', async () => {
      expect(await collect(store().read('run-1'))).toEqual([]);
      expect(await collect(store().read('nope'))).toEqual([]);
      await store().append('run-1', []);
      expect(await collect(store().read('run-1'))).toEqual([]);
    });

    it('accepts run ids that are not plain path segments', async () => {
      await store().init('wf/child-1', meta({ runId: 'wf/child-1' }));
      await store().append('wf/child-1', [row(0)]);
      expect(await collect(store().read('wf/child-1'))).toHaveLength(1);
      expect(await collect(store().read('run-1'))).toHaveLength(0);
    });

    it('finishes a run and lists runs newest first with filters', async () => {
      await store().init('run-2', meta({ runId: 'run-2', startedAt: '2025-01-02T00:00:00.000Z' }));
      await store().init('run-3', meta({ runId: 'run-3', startedAt: '2025-01-03T00:00:00.000Z', siteId: 'other', kind: 'backfill', dataset: 'd/other.csv', datasetSha256: 'def456' }));
      await store().append('run-2', [row(0)]);
      const summary = await summarize((await store().getMeta('run-2'))!, store().read('run-2'), undefined, { finishedAt: '2025-01-02T01:00:00.000Z' });
      await store().finish('run-2', summary);

      expect(await store().getSummary('run-2')).toEqual(summary);
      expect(await store().getSummary('run-1')).toBeUndefined();
      expect((await store().getMeta('run-2'))?.finishedAt).toBe('2025-01-02T01:00:00.000Z');
      const ids = async (filter?: Parameters<ResultsStore['listRuns']>[0]): Promise<string[]> => (await store().listRuns(filter)).map((m) => m.runId);
      expect(await ids()).toEqual(['run-3', 'run-2', 'run-1']);
      expect(await ids({ finished: true })).toEqual(['run-2']);
      expect(await ids({ finished: false, siteId: 'site-1' })).toEqual(['run-1']);
      expect(await ids({ dataset: 'abc123' })).toEqual(['run-2', 'run-1']);
      expect(await ids({ dataset: 'd/other.csv' })).toEqual(['run-3']);
      expect(await ids({ kind: 'backfill' })).toEqual(['run-3']);
      await expect(store().finish('nope', summary)).rejects.toThrow(/run nope was not initialised/);

      // Finishing again (a retried report activity) replaces the summary.
      await store().finish('run-2', { ...summary, finishedAt: '2025-01-02T02:00:00.000Z' });
      expect((await ctx.other().getMeta('run-2'))?.finishedAt).toBe('2025-01-02T02:00:00.000Z');
    });

    it('records unclosed sessions idempotently (last reason wins)', async () => {
      await store().recordSessionFailures('run-1', [{ sessionId: 's1', error: '500 boom' }, { sessionId: 's2', error: '429 slow down' }]);
      await store().recordSessionFailures('run-1', [{ sessionId: 's1', error: '503 still down' }]); // a retried batch
      await store().recordSessionFailures('run-1', []);
      expect(await collect(ctx.other().readSessionFailures('run-1'))).toEqual([{ sessionId: 's1', error: '503 still down' }, { sessionId: 's2', error: '429 slow down' }]);
      expect(await collect(store().readSessionFailures('nope'))).toEqual([]);
      await expect(store().recordSessionFailures('run-1', [{ sessionId: '', error: 'x' }])).rejects.toThrow('session failures item 0: `sessionId` must be a non-empty string');
      await expect(store().recordSessionFailures('nope', [{ sessionId: 's', error: 'x' }])).rejects.toThrow(/was not initialised/);
    });

    it('keeps the last submission record per row, durable for a retry on another worker', async () => {
      expect(await store().getSubmission('run-1', 'r1')).toBeUndefined();
      await store().recordSubmission('run-1', { rowId: 'r1', sends: 1 });
      await store().recordSubmission('run-1', { rowId: 'r2', sends: 1 });
      await store().recordSubmission('run-1', { rowId: 'r1', sends: 1, requestId: 'q1', sessionId: 's1', submittedAtMs: 5 });
      const other = ctx.other();
      expect(await other.getSubmission('run-1', 'r1')).toEqual({ rowId: 'r1', sends: 1, requestId: 'q1', sessionId: 's1', submittedAtMs: 5 });
      expect(await collect(other.readSubmissions('run-1'))).toEqual([{ rowId: 'r1', sends: 1, requestId: 'q1', sessionId: 's1', submittedAtMs: 5 }, { rowId: 'r2', sends: 1 }]);
      await expect(store().recordSubmission('run-1', { rowId: '', sends: 1 })).rejects.toThrow('submission: `rowId` must be a non-empty string');
      await expect(store().recordSubmission('nope', { rowId: 'r', sends: 1 })).rejects.toThrow(/was not initialised/);
    });

    it('keeps the last settle mark per row, for a retried settle on another worker', async () => {
      expect(await store().getSettled('run-1', ['r1'])).toEqual(new Map());
      await store().recordSettled('run-1', [{ rowId: 'r1', feedback: { ok: true } }, { rowId: 'r2', feedback: { ok: false, error: '400 bad request' } }]);
      await store().recordSettled('run-1', [{ rowId: 'r1', feedback: { ok: true }, close: { ok: true } }]);
      await store().recordSettled('run-1', []);
      const found = await ctx.other().getSettled('run-1', ['r1', 'r2', 'r3']);
      expect([...found.entries()].sort(([a], [b]) => a.localeCompare(b))).toEqual([
        ['r1', { rowId: 'r1', feedback: { ok: true }, close: { ok: true } }],
        ['r2', { rowId: 'r2', feedback: { ok: false, error: '400 bad request' } }],
      ]);
      expect(await store().getSettled('run-1', [])).toEqual(new Map());
      await expect(store().recordSettled('run-1', [{ rowId: '' }])).rejects.toThrow('settle marks item 0: `rowId` must be a non-empty string');
      await expect(store().recordSettled('nope', [{ rowId: 'r' }])).rejects.toThrow(/was not initialised/);
    });

    it("keeps a run's notification outcomes, the last record winning, also under a multi-site run's own id", async () => {
      expect(await store().getNotifications('run-1')).toBeUndefined();
      const failed = { destination: 'webhook (HOOK_URL)', kind: 'webhook' as const, status: 'failed' as const, error: 'HTTP 404 Not Found', attempts: 1, deliveryId: 'd1', trigger: 'failed' as const };
      await store().recordNotifications('run-1', [failed]);
      await store().recordNotifications('run-1', [{ ...failed, status: 'delivered', error: undefined, attempts: 2 }, { destination: 'slack (S)', kind: 'slack', status: 'not_sent' }]);
      expect(await ctx.other().getNotifications('run-1')).toEqual([
        { destination: 'webhook (HOOK_URL)', kind: 'webhook', status: 'delivered', attempts: 2, deliveryId: 'd1', trigger: 'failed' },
        { destination: 'slack (S)', kind: 'slack', status: 'not_sent' },
      ]);
      // A multi-site run has no run of its own in the store.
      await store().recordNotifications('ms-1', [failed]);
      expect(await ctx.other().getNotifications('ms-1')).toEqual([failed]);
      expect(await store().getNotifications('run-2')).toBeUndefined();
      expect((await store().listRuns()).map((m) => m.runId)).toEqual(['run-1']);
    });

    it('keeps labels by key, the last write winning, across batches, inside one batch and for a second instance', async () => {
      const a = label('Capital of France?');
      const b = label('Capital of Spain?', { references: ['Madrid'], answer: 'madrid' });
      expect(await collect(store().readLabels())).toEqual([]);
      expect(await store().getLabels([a.key])).toEqual(new Map());
      await store().putLabels([a, b]);
      await store().putLabels([a, b]); // a retried batch
      // A second instance that read the labels once sees what is written after (a worker, then the review page).
      const other = ctx.other();
      expect(await other.getLabels([a.key])).toEqual(new Map([[a.key, a]]));
      const corrected = { ...a, verdict: 'fail' as const, note: 'not in the source', by: 'ana', at: '2025-01-02T00:00:00.000Z' };
      await store().putLabels([corrected]);
      expect(await other.getLabels([a.key, b.key, 'missing'])).toEqual(new Map([[a.key, corrected], [b.key, b]]));
      const both = [corrected, b].sort((x, y) => (x.key < y.key ? -1 : 1));
      expect(await collect(other.readLabels())).toEqual(both);
      // Inside one batch the last label of a key wins too.
      await store().putLabels([{ ...b, note: 'first' }, { ...b, note: 'second' }]);
      expect((await other.getLabels([b.key])).get(b.key)?.note).toBe('second');
      await store().putLabels([]);
    });

    it('reads labels ordered by key, filtered by site, in bounded pages', async () => {
      const many = Array.from({ length: 1203 }, (_, i) => label(`Question ${i}?`, { siteId: i % 3 === 0 ? 'site-2' : 'site-1', answer: `answer ${i}` }));
      await Promise.all([store().putLabels(many.slice(0, 600)), store().putLabels(many.slice(600))]);
      const all = await collect(ctx.other().readLabels());
      expect(all.map((l) => l.key)).toEqual(many.map((l) => l.key).sort());
      const site2 = await collect(store().readLabels({ siteId: 'site-2' }));
      expect(site2).toHaveLength(401);
      expect(site2.every((l) => l.siteId === 'site-2')).toBe(true);
      expect(site2.map((l) => l.key)).toEqual([...site2.map((l) => l.key)].sort());
      expect(await collect(store().readLabels({ siteId: 'nope' }))).toEqual([]);
      expect((await store().getLabels(many.map((l) => l.key))).size).toBe(1203);
    });

    it('refuses invalid labels and writes none of their batch', async () => {
      const good = label('Q?');
      await expect(store().putLabels([good, { ...label('R?'), key: '' }])).rejects.toThrow('labels batch item 1: `key` must be a non-empty string');
      await expect(store().putLabels([{ ...good, verdict: 'maybe' as 'pass' }])).rejects.toThrow(/labels batch item 0 \(key [0-9a-f]+\): `verdict` must be one of pass, fail/);
      await expect(store().putLabels([{ ...good, references: 'Paris' as unknown as string[] }])).rejects.toThrow(/`references` must be an array of strings/);
      await expect(store().putLabels([{ ...good, siteId: '' }])).rejects.toThrow(/`siteId` must be a non-empty string/);
      expect(await collect(store().readLabels())).toEqual([]);
    });
  });
}
