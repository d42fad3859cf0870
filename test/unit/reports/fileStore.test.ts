import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { LABELS_FILE, StoreFile } from '../../../src/store/files';
import { label, storeContract } from '../../helpers/storeContract';
import { collect, meta, row, tempDir, useTempStore } from './fixtures';

storeContract('FileResultsStore', async () => {
  const { dir, cleanup } = await tempDir();
  return { store: new FileResultsStore(dir), other: () => new FileResultsStore(dir), cleanup };
});

describe('FileResultsStore on disk', () => {
  const ctx = useTempStore();

  beforeEach(async () => {
    await ctx.store.init('run-1', meta());
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
  });

  it('survives a torn line from a crash mid-write', async () => {
    await ctx.store.append('run-1', [row(0)]);
    await appendFile(join(ctx.store.runDir('run-1'), StoreFile.log), '{"id":"r1","index":1,"outc');
    await ctx.store.append('run-1', [row(1), row(2)]);
    expect((await collect(ctx.store.read('run-1'))).map((r) => r.id)).toEqual(['r0', 'r1', 'r2']);
  });

  it('names run directories safely', async () => {
    await ctx.store.init('wf/child-1', meta({ runId: 'wf/child-1' }));
    expect(ctx.store.runDir('wf/child-1')).toBe(join(ctx.dir, 'wf%2Fchild-1'));
    expect(() => ctx.store.runDir('..')).toThrow(/not usable/);
  });

  it('lists nothing when the directory does not exist', async () => {
    expect(await new FileResultsStore(join(ctx.dir, 'missing')).listRuns()).toEqual([]);
  });

  it('skips a run whose meta.json is corrupt', async () => {
    await mkdir(join(ctx.dir, 'broken'));
    await writeFile(join(ctx.dir, 'broken', 'meta.json'), '{"runId": "bro');
    expect((await ctx.store.listRuns()).map((m) => m.runId)).toEqual(['run-1']);
  });

  it('keeps labels in one file of the root, skips a torn label line, and lists runs beside it', async () => {
    const a = label('A?');
    const b = label('B?');
    await ctx.store.putLabels([a]);
    await appendFile(join(ctx.dir, LABELS_FILE), '{"key":"torn","siteId":"site-1","verd');
    await ctx.store.putLabels([b]);
    expect((await collect(ctx.store.readLabels())).map((l) => l.key)).toEqual([a.key, b.key].sort());
    expect((await ctx.store.listRuns()).map((m) => m.runId)).toEqual(['run-1']);
  });

  it('creates the root directory for the first label', async () => {
    const store = new FileResultsStore(join(ctx.dir, 'fresh'));
    await store.putLabels([label('A?')]);
    expect(await collect(store.readLabels())).toHaveLength(1);
  });
});
