/**
 * `sitechat grade` as a library call: recorded answers → a new finished run in the results store with its reports.
 * The CLI action parses flags and prints; tests call this directly.
 */
import { join, resolve } from 'node:path';
import type { RunConfig } from '../config';
import { finalizeRun } from '../render/writeReports';
import { loadExplicitBaseline, selectLatestBaseline } from '../analysis/baselineSelect';
import { writeHistory } from '../render/historyPage';
import { type ResultsStore } from '../store/store';
import { type RunSummary } from '../domain/results';
import { JudgeCache, type Judge } from '../grading/judge';
import { openStore } from '../store/open';
import { recordReportDir } from '../render/reportDirs';
import { buildInfo } from '../shared/buildInfo';
import { AnswerSource, gradingOf, type Provenance } from '../domain/provenance';
import { createItemGrader } from './grader';
import { regrade } from './regrade';
import type { GradeInput } from './types';

export interface GradeRunOptions {
  /** Where runs live (the file results store), and this host's report files. */
  runsDir: string;
  /** A `postgres://` URL: the run is recorded in the PostgreSQL results store instead. @default none: the file store */
  storeUrl?: string;
  runId: string;
  config?: Pick<RunConfig, 'assertions' | 'thresholds'>;
  failUnder?: number;
  /** Errored and timed-out rows allowed, as a share of all rows. @default 0 */
  maxErrorRate?: number;
  /** Uncertain rows allowed, as a share of the graded rows. @default 0.1 */
  maxUncertainRate?: number;
  /** A run directory, or `latest`: the newest compatible finished run in the store, picked once grading is done. */
  baseline?: string;
  /** @default the run's site for a run directory, else `offline` */
  siteId?: string;
  /** @default `<runsDir>/<runId>` */
  outDir?: string;
  /** The LLM judge, paced for use outside Temporal (`offlineJudge`). @default none: judge assertions make rows `error` */
  judge?: Judge;
  /** How reports name `judge` (`offlineJudgeProvenance`): its model and host. */
  judgeProvenance?: Provenance['judge'];
  /** Rows graded at once. @default 8 */
  concurrency?: number;
  onProgress?: (done: number) => void;
  /** A file the Markdown headline and verdict are appended to, as `run` does (`GITHUB_STEP_SUMMARY`). @default none */
  stepSummaryFile?: string;
}

export interface GradeRunResult {
  summary: RunSummary;
  outDir: string;
}

export async function gradeRun(input: GradeInput, options: GradeRunOptions): Promise<GradeRunResult> {
  const opened = openStore(options.runsDir, options.storeUrl);
  try {
    return await gradeInto(opened.store, input, options);
  } finally {
    await opened.close();
  }
}

async function gradeInto(store: ResultsStore, input: GradeInput, options: GradeRunOptions): Promise<GradeRunResult> {
  const { runId, config } = options;
  const { source } = input;
  const siteId = options.siteId ?? (source.kind === 'run' ? source.siteId : undefined) ?? 'offline';
  await store.init(runId, {
    runId, workflowId: `sitechat-grade-${runId}`, kind: 'evaluation', dataset: input.dataset, datasetSha256: input.datasetSha256,
    siteId, model: source.kind === 'run' ? source.model : undefined, startedAt: new Date().toISOString(), rowCount: input.rows,
    options: { grade: { input: source.path, regradeOf: source.kind === 'run' ? source.runId : undefined }, failUnder: options.failUnder, maxErrorRate: options.maxErrorRate, maxUncertainRate: options.maxUncertainRate, baseline: options.baseline },
    provenance: gradeProvenance(input, options),
  });
  const grader = createItemGrader({
    assertions: config?.assertions ?? [], thresholds: config?.thresholds, judge: options.judge, judgeCache: JudgeCache.inRunsDir(options.runsDir),
    labels: { store, siteId },
  });
  await regrade(input.items(), store, runId, grader, { concurrency: options.concurrency, onProgress: options.onProgress });

  const model = source.kind === 'run' ? (source.model ?? null) : null;
  const target = { runId, dataset: input.dataset, datasetSha256: input.datasetSha256, siteId, model, maxErrorRate: options.maxErrorRate ?? 0 };
  const ref = options.baseline;
  const baselineChoice = ref === undefined ? undefined : ref === 'latest' ? await selectLatestBaseline(store, target) : await loadExplicitBaseline(ref, target);
  const outDir = resolve(options.outDir ?? join(options.runsDir, encodeURIComponent(runId)));
  const { summary } = await finalizeRun(store, runId, {
    outDir, baselineChoice, gate: { failUnder: options.failUnder, maxErrorRate: options.maxErrorRate, maxUncertainRate: options.maxUncertainRate }, stepSummaryFile: options.stepSummaryFile,
  });
  await recordReportDir(options.runsDir, runId, outDir);
  await writeHistory(store, options.runsDir);
  return { summary, outDir };
}

/** Nothing was asked: the answers are the input's, and for a run directory, where that run got them. */
function gradeProvenance(input: GradeInput, options: GradeRunOptions): Provenance {
  const { source } = input;
  const earlier = source.kind === 'run' ? source.answers : undefined;
  return {
    answers: {
      from: AnswerSource.file,
      input: source.path,
      ...(source.kind === 'run' && source.runId !== undefined && { regradeOf: source.runId }),
      ...(earlier?.host !== undefined && { host: earlier.host }),
      ...((earlier?.from === AnswerSource.simulator || earlier?.simulator === true) && { simulator: true }),
    },
    ...(options.judge && options.judgeProvenance && { judge: options.judgeProvenance }),
    grading: gradingOf(options.config?.assertions, options.config?.thresholds),
    runner: buildInfo(),
  };
}
