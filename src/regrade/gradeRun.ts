/**
 * `sitechat grade` as a library call: recorded answers → a new finished run in the results store with its reports.
 * The CLI action parses flags and prints; tests call this directly.
 */
import { resolve } from 'node:path';
import type { RunConfig } from '../config';
import { FileResultsStore, finalizeRun, findLatestRun, loadBaselineFromStore, type BaselineInput, type RunSummary } from '../reports';
import { JudgeCache, type Judge } from '../grading/judge';
import { createItemGrader } from './grader';
import { regrade } from './regrade';
import type { GradeInput } from './types';

export interface GradeRunOptions {
  /** Where runs live (the results store). */
  runsDir: string;
  runId: string;
  config?: Pick<RunConfig, 'assertions' | 'thresholds'>;
  failUnder?: number;
  /** An explicit baseline, loaded by the caller; or `latest` to pick one from the store once grading is done. */
  baseline?: BaselineInput | 'latest';
  /** @default the run's site for a run directory, else `offline` */
  siteId?: string;
  /** @default `<runsDir>/<runId>` */
  outDir?: string;
  /** The LLM judge, paced for use outside Temporal (`offlineJudge`). @default none: judge assertions make rows `error` */
  judge?: Judge;
  /** Rows graded at once. @default 8 */
  concurrency?: number;
  onProgress?: (done: number) => void;
}

export interface GradeRunResult {
  summary: RunSummary;
  outDir: string;
  /** `latest` was asked for and no earlier run of the dataset and site was found. */
  noBaselineFound: boolean;
}

export async function gradeRun(input: GradeInput, options: GradeRunOptions): Promise<GradeRunResult> {
  const { runId, config } = options;
  const store = new FileResultsStore(options.runsDir);
  const { source } = input;
  const siteId = options.siteId ?? (source.kind === 'run' ? source.siteId : undefined) ?? 'offline';
  await store.init(runId, {
    runId, workflowId: `sitechat-grade-${runId}`, kind: 'evaluation', dataset: input.dataset, datasetSha256: input.datasetSha256,
    siteId, model: source.kind === 'run' ? source.model : undefined, startedAt: new Date().toISOString(), rowCount: input.rows,
    options: { grade: { input: source.path, regradeOf: source.kind === 'run' ? source.runId : undefined }, failUnder: options.failUnder },
  });
  const grader = createItemGrader({
    assertions: config?.assertions ?? [], thresholds: config?.thresholds, judge: options.judge, judgeCache: JudgeCache.inRunsDir(options.runsDir),
  });
  await regrade(input.items(), store, runId, grader, { concurrency: options.concurrency, onProgress: options.onProgress });

  const latest = options.baseline === 'latest' ? await findLatestRun(store, input.datasetSha256, siteId, runId) : undefined;
  const baseline = options.baseline === 'latest' ? (latest && (await loadBaselineFromStore(store, latest.runId))) : options.baseline;
  const outDir = resolve(options.outDir ?? store.runDir(runId));
  const { summary } = await finalizeRun(store, runId, { outDir, baseline, gate: { failUnder: options.failUnder } });
  return { summary, outDir, noBaselineFound: options.baseline === 'latest' && !latest };
}
