import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as fileIo from '../../../src/shared/fileIo';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { StoreFile } from '../../../src/store/files';
import { meta, useTempStore } from './fixtures';

vi.mock('../../../src/shared/fileIo', async (original) => {
  const io = await original<typeof import('../../../src/shared/fileIo')>();
  return { ...io, appendDurably: vi.fn(io.appendDurably), readJsonIfExists: vi.fn(io.readJsonIfExists) };
});

/** The file store's hot path: every ask writes its submission twice (before the send, and with the request id). */
describe('FileResultsStore appends', () => {
  const ctx = useTempStore();

  beforeEach(async () => {
    await ctx.store.init('run-1', meta());
    vi.mocked(fileIo.appendDurably).mockClear();
    vi.mocked(fileIo.readJsonIfExists).mockClear();
  });

  it('writes appends that queue behind a write in flight together, in the order they were made', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `r${i}`);
    await Promise.all(rows.map((rowId) => ctx.store.recordSubmission('run-1', { rowId, sends: 1 })));
    const lines = (await readFile(join(ctx.store.runDir('run-1'), StoreFile.submissions), 'utf8')).split('\n').filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as { rowId: string }).rowId)).toEqual(rows);
    // The run is known (this store initialised it), so the appends reach the queue in the order they were made: the
    // first write goes alone, the 199 made while it was in flight share the next one.
    expect(vi.mocked(fileIo.appendDurably).mock.calls).toHaveLength(2);
    expect(await ctx.store.getSubmission('run-1', 'r199')).toEqual({ rowId: 'r199', sends: 1 });
  });

  it('reads meta.json once per run, not before every append', async () => {
    // Another process's store (a worker that did not initialise the run): it reads meta.json on its first append only.
    const worker = new FileResultsStore(ctx.dir);
    for (let i = 0; i < 5; i += 1) await worker.recordSubmission('run-1', { rowId: `r${i}`, sends: 1 });
    await worker.recordSettled('run-1', [{ rowId: 'r0' }]);
    expect(vi.mocked(fileIo.readJsonIfExists).mock.calls.filter(([path]) => path.endsWith(StoreFile.meta))).toHaveLength(1);
  });

  it('fails every append of a write that fails, and writes the next ones', async () => {
    await ctx.store.recordSubmission('run-1', { rowId: 'r0', sends: 1 });
    await rm(ctx.store.runDir('run-1'), { recursive: true });
    const results = await Promise.allSettled([1, 2, 3].map((i) => ctx.store.recordSubmission('run-1', { rowId: `r${i}`, sends: 1 })));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/ENOENT/);
    await ctx.store.init('run-1', meta());
    await ctx.store.recordSubmission('run-1', { rowId: 'r4', sends: 1 });
    expect(await ctx.store.getSubmission('run-1', 'r4')).toEqual({ rowId: 'r4', sends: 1 });
  });
});
