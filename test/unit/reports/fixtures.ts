import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { FileResultsStore } from '../../../src/reports/fileStore';
import type { RowResult, RunMeta } from '../../../src/reports/types';

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
