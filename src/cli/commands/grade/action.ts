import { resolve } from 'node:path';
import { formatIssue } from '../../../datasets';
import type { RunConfig } from '../../../config';
import { offlineJudge, offlineJudgeProvenance } from '../../../regrade/grader';
import { openFileInput } from '../../../regrade/fileInput';
import { gradeRun } from '../../../regrade/gradeRun';
import { isRunDirectory, openRunInput } from '../../../regrade/runInput';
import type { GradeInput } from '../../../regrade/types';
import { ExitCode, exitCodeFor } from '../../follow/follow';
import { createLogger, type Logger } from '../../logger';
import { isUsageError } from '../../usageErrors';
import { runsDir, storeUrlProblem } from '../run/preflight';
import { storeUrlFromEnv } from '../../../store/open';
import { parsePositiveInt, parseRate } from '../run/runOptions';
import { errorSamplesFor } from '../../follow/errorSamples';
import { isStoreConnectFailure, storeFailureMessage } from '../../store/storeFailure';
import { summaryTable } from '../../follow/summaryTable';
import { capLines, checkBaseline, checkConfig, checkOutDir, UsageProblems } from '../run/validate';
import { newRunId } from '../run/action';

export interface GradeFlags {
  config?: string;
  baseline?: string;
  failUnder?: string;
  maxErrorRate?: string;
  maxUncertainRate?: string;
  out?: string;
  site?: string;
  delimiter?: string;
  concurrency?: string;
  json?: boolean;
}

/** A progress line at most this often on long inputs. */
const PROGRESS_EVERY_MS = 2000;

interface GradeSettings {
  config?: RunConfig;
  failUnder?: number;
  maxErrorRate?: number;
  maxUncertainRate?: number;
  concurrency: number;
}

/** Every flag checked before the input is read: each problem named with its flag, all of them at once. */
async function checkFlags(flags: GradeFlags): Promise<{ settings: GradeSettings; problems: string[] }> {
  const problems = new UsageProblems();
  const loaded = flags.config ? await checkConfig(flags.config) : undefined;
  for (const line of loaded?.problems ?? []) problems.add('--config', line);
  const config = loaded?.config;
  const failUnder = flags.failUnder !== undefined ? problems.try('--fail-under', () => parseRate(flags.failUnder ?? '', '--fail-under')) : config?.failUnder;
  const maxErrorRate = flags.maxErrorRate !== undefined ? problems.try('--max-error-rate', () => parseRate(flags.maxErrorRate ?? '', '--max-error-rate')) : config?.maxErrorRate;
  const maxUncertainRate = flags.maxUncertainRate !== undefined
    ? problems.try('--max-uncertain-rate', () => parseRate(flags.maxUncertainRate ?? '', '--max-uncertain-rate'))
    : config?.maxUncertainRate;
  const concurrency = flags.concurrency !== undefined ? problems.try('--concurrency', () => parsePositiveInt(flags.concurrency ?? '', '--concurrency')) : 8;
  const baseline = flags.baseline !== undefined ? await checkBaseline(flags.baseline) : undefined;
  if (baseline) problems.add('--baseline', baseline);
  const out = flags.out !== undefined ? await checkOutDir(resolve(flags.out)) : undefined;
  if (out) problems.add('--out', out);
  const store = storeUrlProblem();
  if (store) problems.lines.push(store);
  return { settings: { config, failUnder, maxErrorRate, maxUncertainRate, concurrency: concurrency ?? 8 }, problems: problems.lines };
}

async function openInput(path: string, flags: GradeFlags, config: RunConfig | undefined): Promise<GradeInput> {
  return (await isRunDirectory(path)) ? openRunInput(path) : openFileInput(path, { delimiter: flags.delimiter, metadata: config?.metadata });
}

function progress(log: Logger, total: number): (done: number) => void {
  let last = Date.now();
  return (done) => {
    if (Date.now() - last < PROGRESS_EVERY_MS) return;
    last = Date.now();
    log.info(`graded ${done}/${total} rows`);
  };
}

/** `sitechat grade`: validate everything, grade recorded answers into a new run, write its reports, exit with the gate. */
export async function gradeAction(inputPath: string, flags: GradeFlags): Promise<number> {
  const log = createLogger({ quiet: false });
  try {
    const { settings, problems } = await checkFlags(flags);
    const input = await openInput(resolve(inputPath), flags, settings.config);
    const issues = input.issues.map(formatIssue);
    if (problems.length > 0 || input.issueCount > 0) {
      for (const line of capLines(problems)) log.error(line);
      for (const line of capLines(issues, undefined, input.issueCount)) log.error(line);
      log.error(`${problems.length + input.issueCount} problem(s); nothing was graded. Fix them and run again.`);
      return ExitCode.usage;
    }
    // Settings of the judge are checked here too (a JudgeConfigError names the variable): still nothing graded.
    const judge = offlineJudge();
    const runId = `grade-${newRunId()}`;
    log.info(`grading ${input.rows} recorded answers from ${inputPath} as run ${runId} (nothing is sent to the Site Chat API)`);
    const { summary, outDir } = await gradeRun(input, {
      runsDir: runsDir(), storeUrl: storeUrlFromEnv(), runId, config: settings.config, failUnder: settings.failUnder, maxErrorRate: settings.maxErrorRate,
      maxUncertainRate: settings.maxUncertainRate,
      siteId: flags.site, concurrency: settings.concurrency, judge, judgeProvenance: offlineJudgeProvenance(), baseline: flags.baseline, outDir: flags.out,
      onProgress: progress(log, input.rows), stepSummaryFile: process.env.GITHUB_STEP_SUMMARY || undefined,
    });
    for (const warning of input.warnings) log.warn(warning);
    if (flags.json) log.out(JSON.stringify({ ...summary, reportDir: outDir }, null, 2));
    else log.out(summaryTable(summary, await errorSamplesFor(summary)));
    log.info(`reports: ${outDir}`);
    return exitCodeFor({ summary, cancelled: false });
  } catch (err) {
    if (isStoreConnectFailure(err)) {
      log.error(storeFailureMessage(err));
      return ExitCode.runFailed;
    }
    log.error(err instanceof Error ? err.message : String(err));
    // The input or the settings (by class), not the grading.
    return isUsageError(err) ? ExitCode.usage : ExitCode.runFailed;
  }
}
