import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BaselineInput } from './baseline';
import { writeFileAtomic } from './fileIo';
import { ReportFile } from './files';
import { evaluateGate, type GateOptions } from './gate';
import { renderHtml } from './html';
import { renderJUnit } from './junit';
import { renderMarkdown } from './markdown';
import type { ResultsStore } from './store';
import { summarize, type SummarizeOptions } from './summary';
import type { GateResult, RowResult, RunMeta, RunSummary } from './types';

/** Where each report file was written. */
export type ReportPaths = Record<keyof typeof ReportFile, string>;

/** `results.jsonl`: one line per row id, dataset order (as the store reads them). */
export async function* renderResultsJsonl(results: AsyncIterable<RowResult>): AsyncGenerator<string> {
  for await (const row of results) yield `${JSON.stringify(row)}\n`;
}

async function requireMeta(store: ResultsStore, runId: string): Promise<RunMeta> {
  const meta = await store.getMeta(runId);
  if (!meta) throw new Error(`reports: run ${runId} not found in the results store`);
  return meta;
}

/**
 * Renders all five report files of a run from the store into `outDir` (created if needed). Uses the
 * summary stored by `finish`; for a run not finished yet, a summary without baseline or gate.
 * Each file is written atomically and streamed from its own pass over the store.
 */
export async function writeReports(store: ResultsStore, runId: string, outDir: string): Promise<{ paths: ReportPaths }> {
  const summary = (await store.getSummary(runId)) ?? (await summarize(await requireMeta(store, runId), store.read(runId)));
  await mkdir(outDir, { recursive: true });
  const paths: ReportPaths = {
    summary: join(outDir, ReportFile.summary),
    results: join(outDir, ReportFile.results),
    markdown: join(outDir, ReportFile.markdown),
    junit: join(outDir, ReportFile.junit),
    html: join(outDir, ReportFile.html),
  };
  await writeFileAtomic(paths.summary, `${JSON.stringify(summary, null, 2)}\n`);
  await writeFileAtomic(paths.results, renderResultsJsonl(store.read(runId)));
  await writeFileAtomic(paths.markdown, await renderMarkdown(summary, store.read(runId)));
  await writeFileAtomic(paths.junit, renderJUnit(summary, store.read(runId)));
  await writeFileAtomic(paths.html, renderHtml(summary, store.read(runId)));
  return { paths };
}

export interface FinalizeOptions extends SummarizeOptions {
  /** Directory for the report files. */
  outDir: string;
  baseline?: BaselineInput;
  /** Quality-gate thresholds. `baselineGiven` defaults to whether `baseline` is set. */
  gate?: Partial<GateOptions>;
}

/**
 * End of a run, as the report activity does it: summarize (with baseline), evaluate the gate,
 * store the summary and mark the run finished, then write the reports. Safe to repeat (a retried
 * activity recomputes the same summary and rewrites the same files).
 */
export async function finalizeRun(
  store: ResultsStore,
  runId: string,
  options: FinalizeOptions,
): Promise<{ summary: RunSummary; gate: GateResult; paths: ReportPaths }> {
  const meta = await requireMeta(store, runId);
  const { outDir, baseline, gate: gateOptions = {}, ...rest } = options;
  const finishedAt = rest.finishedAt ?? meta.finishedAt ?? new Date().toISOString();
  const summarized = await summarize(meta, store.read(runId), baseline, { ...rest, finishedAt });
  const gate = evaluateGate(summarized, { ...gateOptions, baselineGiven: gateOptions.baselineGiven ?? baseline !== undefined });
  const summary: RunSummary = { ...summarized, gate };
  await store.finish(runId, summary);
  const { paths } = await writeReports(store, runId, outDir);
  return { summary, gate, paths };
}
