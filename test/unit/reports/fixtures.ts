import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach } from 'vitest';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import type { ResultsStore } from '../../../src/store/store';
import type { RowResult, RunMeta } from '../../../src/domain/results';

/** A run meta with sensible defaults. */
export function meta(overrides: Partial<RunMeta> = {}): RunMeta {
  return {
    runId: 'run-1',
    workflowId: 'wf-1',
    kind: 'evaluation',
    dataset: 'datasets/demo.csv',
    datasetSha256: 'abc123',
    siteId: 'site-1',
    startedAt: '2025-01-01T00:00:00.000Z',
    options: {},
    ...overrides,
  };
}

/** A result row with sensible defaults. */
export function row(index: number, overrides: Partial<RowResult> = {}): RowResult {
  return {
    id: `r${index}`,
    index,
    line: index + 2,
    question: `Question ${index}?`,
    outcome: 'passed',
    answer: `Answer ${index}.`,
    latencyMs: 100 + index,
    ...overrides,
  };
}

export async function* iterate<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** A fresh temporary directory and its cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'reports-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A `FileResultsStore` on a fresh temporary directory for each test of the calling suite. */
export function useTempStore(): { readonly dir: string; readonly store: FileResultsStore } {
  const ctx = { dir: '', store: new FileResultsStore(''), cleanup: (): Promise<void> => Promise.resolve() };
  beforeEach(async () => {
    ({ dir: ctx.dir, cleanup: ctx.cleanup } = await tempDir());
    ctx.store = new FileResultsStore(ctx.dir);
  });
  afterEach(() => ctx.cleanup());
  return ctx;
}

/** Appends `total` rows `0…total-1` in batches, last batch first, so a read must put them back in order. */
export async function appendReversed(store: ResultsStore, runId: string, total: number, batch: number, answer: string): Promise<void> {
  for (let start = total - batch; start >= 0; start -= batch) {
    await store.append(runId, Array.from({ length: batch }, (_, i) => row(start + i, { answer })));
  }
}

let gc: (() => void) | undefined;

/** A full garbage collection on demand (V8's `gc`, exposed for this process once, at the first call). */
function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/**
 * Streams a run's rows, failing at the first out of order, and samples how far the live heap grew meanwhile: a store
 * that streams keeps it near one page of rows whatever the run's size. Each sample follows a full collection, so it
 * counts what the read holds, not garbage a busy machine has not collected yet.
 */
export async function readInOrder(store: ResultsStore, runId: string): Promise<{ rows: number; peakHeapBytes: number }> {
  collectGarbage();
  const baseline = process.memoryUsage().heapUsed;
  let peakHeapBytes = 0;
  let rows = 0;
  for await (const r of store.read(runId)) {
    if (r.index !== rows) throw new Error(`row ${rows} expected, got ${r.index}`);
    rows++;
    if (rows % 5_000 === 0) {
      collectGarbage();
      peakHeapBytes = Math.max(peakHeapBytes, process.memoryUsage().heapUsed - baseline);
    }
  }
  return { rows, peakHeapBytes };
}
