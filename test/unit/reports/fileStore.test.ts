import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileResultsStore } from '../../../src/reports/fileStore';
import { StoreFile } from '../../../src/reports/files';
import { summarize } from '../../../src/reports/summary';
import { collect, meta, row, useTempStore } from './fixtures';

describe('FileResultsStore', () => {
  const ctx = useTempStore();

  beforeEach(async () => {
    await ctx.store.init('run-1', meta());
  });

  it('keeps the first meta when init is repeated (replayed workflow)', async () => {
    await ctx.store.init('run-1', meta({ startedAt: '2030-01-01T00:00:00.000Z' }));
    expect((await ctx.store.getMeta('run-1'))?.startedAt).toBe('2025-01-01T00:00:00.000Z');
  });

  it('rejects meta for another run id and incomplete meta', async () => {
    await expect(ctx.store.init('run-2', meta())).rejects.toThrow(/does not match/);
    await expect(ctx.store.init('run-3', meta({ runId: 'run-3', siteId: '' }))).rejects.toThrow('run meta: `siteId` must be a non-empty string');
  });

  it('stores the same batch twice only once', async () => {
    const batch = [row(0), row(1), row(2)];
    await ctx.store.append('run-1', batch);
    await ctx.store.append('run-1', batch);
    expect(await collect(ctx.store.read('run-1'))).toEqual(batch);
  });

  it('lets the last write win for overlapping retried batches', async () => {
    await ctx.store.append('run-1', [0, 1, 2, 3, 4].map((i) => row(i)));
    await ctx.store.append('run-1', [3, 4, 5, 6].map((i) => row(i, { outcome: 'failed' })));
    const rows = await collect(ctx.store.read('run-1'));
    expect(rows.map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(rows.map((r) => r.outcome)).toEqual(['passed', 'passed', 'passed', 'failed', 'failed', 'failed', 'failed']);
  });

  it('reads in dataset order whatever the append order', async () => {
    await ctx.store.append('run-1', [row(5), row(2)]);
    await ctx.store.append('run-1', [row(9), row(0), row(7)]);
    expect((await collect(ctx.store.read('run-1'))).map((r) => r.index)).toEqual([0, 2, 5, 7, 9]);
  });

  it('never interleaves lines of concurrent appends', async () => {
    const long = 'x'.repeat(20_000);
    await Promise.all(
      Array.from({ length: 20 }, (_, b) => ctx.store.append('run-1', Array.from({ length: 50 }, (_, i) => row(b * 50 + i, { answer: long })))),
    );
    const log = await readFile(join(ctx.store.runDir('run-1'), StoreFile.log), 'utf8');
    const lines = log.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1000);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect((await collect(ctx.store.read('run-1'))).map((r) => r.index)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('survives a torn line from a crash mid-write', async () => {
    await ctx.store.append('run-1', [row(0)]);
    await appendFile(join(ctx.store.runDir('run-1'), StoreFile.log), '{"id":"r1","index":1,"outc');
    await ctx.store.append('run-1', [row(1), row(2)]);
    expect((await collect(ctx.store.read('run-1'))).map((r) => r.id)).toEqual(['r0', 'r1', 'r2']);
  });

  it('refuses rows for an unknown run and invalid rows', async () => {
    await expect(ctx.store.append('nope', [row(0)])).rejects.toThrow(/run nope was not initialised/);
    await expect(ctx.store.append('run-1', [row(0), row(1, { id: '' })])).rejects.toThrow('results batch item 1: `id` must be a non-empty string');
    await expect(ctx.store.append('run-1', [row(0, { index: -1 })])).rejects.toThrow(/`index` must be a non-negative integer/);
  });

  it('reads nothing before the first append', async () => {
    expect(await collect(ctx.store.read('run-1'))).toEqual([]);
  });

  it('accepts run ids that are not plain path segments', async () => {
    await ctx.store.init('wf/child-1', meta({ runId: 'wf/child-1' }));
    await ctx.store.append('wf/child-1', [row(0)]);
    expect(await collect(ctx.store.read('wf/child-1'))).toHaveLength(1);
    expect(() => ctx.store.runDir('..')).toThrow(/not usable/);
  });

  it('finishes a run and lists runs newest first with filters', async () => {
    await ctx.store.init('run-2', meta({ runId: 'run-2', startedAt: '2025-01-02T00:00:00.000Z' }));
    await ctx.store.init('run-3', meta({ runId: 'run-3', startedAt: '2025-01-03T00:00:00.000Z', siteId: 'other' }));
    await ctx.store.append('run-2', [row(0)]);
    const summary = await summarize((await ctx.store.getMeta('run-2'))!, ctx.store.read('run-2'), undefined, { finishedAt: '2025-01-02T01:00:00.000Z' });
    await ctx.store.finish('run-2', summary);

    expect(await ctx.store.getSummary('run-2')).toEqual(summary);
    expect(await ctx.store.getSummary('run-1')).toBeUndefined();
    expect((await ctx.store.getMeta('run-2'))?.finishedAt).toBe('2025-01-02T01:00:00.000Z');
    expect((await ctx.store.listRuns()).map((m) => m.runId)).toEqual(['run-3', 'run-2', 'run-1']);
    expect((await ctx.store.listRuns({ finished: true })).map((m) => m.runId)).toEqual(['run-2']);
    expect((await ctx.store.listRuns({ finished: false, siteId: 'site-1' })).map((m) => m.runId)).toEqual(['run-1']);
    expect((await ctx.store.listRuns({ dataset: 'abc123' })).map((m) => m.runId)).toEqual(['run-3', 'run-2', 'run-1']);
    expect(await new FileResultsStore(join(ctx.dir, 'missing')).listRuns()).toEqual([]);
  });

  it('records unclosed sessions idempotently (last reason wins), and skips a run whose meta.json is corrupt', async () => {
    await ctx.store.init('run-1', meta());
    await ctx.store.recordSessionFailures('run-1', [{ sessionId: 's1', error: '500 boom' }, { sessionId: 's2', error: '429 slow down' }]);
    await ctx.store.recordSessionFailures('run-1', [{ sessionId: 's1', error: '503 still down' }]); // a retried batch
    const failures: unknown[] = [];
    for await (const f of ctx.store.readSessionFailures('run-1')) failures.push(f);
    expect(failures).toEqual([{ sessionId: 's1', error: '503 still down' }, { sessionId: 's2', error: '429 slow down' }]);
    await expect(ctx.store.recordSessionFailures('run-1', [{ sessionId: '', error: 'x' }])).rejects.toThrow('session failures item 0: `sessionId` must be a non-empty string');
    await expect(ctx.store.recordSessionFailures('nope', [{ sessionId: 's', error: 'x' }])).rejects.toThrow(/was not initialised/);

  });

  it('keeps the last submission record per row, durable for a retry on another worker', async () => {
    await ctx.store.init('run-1', meta());
    expect(await ctx.store.getSubmission('run-1', 'r1')).toBeUndefined();
    await ctx.store.recordSubmission('run-1', { rowId: 'r1', sends: 1 });
    await ctx.store.recordSubmission('run-1', { rowId: 'r2', sends: 1 });
    await ctx.store.recordSubmission('run-1', { rowId: 'r1', sends: 1, requestId: 'q1', sessionId: 's1', submittedAtMs: 5 });
    // Another process (a worker picking up the retry) sees what this one wrote.
    const other = new FileResultsStore(ctx.dir);
    expect(await other.getSubmission('run-1', 'r1')).toEqual({ rowId: 'r1', sends: 1, requestId: 'q1', sessionId: 's1', submittedAtMs: 5 });
    const all: unknown[] = [];
    for await (const s of other.readSubmissions('run-1')) all.push(s);
    expect(all).toEqual([{ rowId: 'r1', sends: 1, requestId: 'q1', sessionId: 's1', submittedAtMs: 5 }, { rowId: 'r2', sends: 1 }]);
    await expect(ctx.store.recordSubmission('run-1', { rowId: '', sends: 1 })).rejects.toThrow('submission: `rowId` must be a non-empty string');
    await expect(ctx.store.recordSubmission('nope', { rowId: 'r', sends: 1 })).rejects.toThrow(/was not initialised/);
  });

  it('skips a run whose meta.json is corrupt', async () => {
    await ctx.store.init('run-1', meta());
    await mkdir(join(ctx.dir, 'broken'));
    await writeFile(join(ctx.dir, 'broken', 'meta.json'), '{"runId": "bro');
    expect((await ctx.store.listRuns()).map((m) => m.runId)).toEqual(['run-1']);
  });
});
