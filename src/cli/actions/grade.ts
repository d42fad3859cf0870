import { resolve } from 'node:path';
import { formatIssue } from '../../datasets';
import { loadRunConfig, type RunConfig } from '../../config';
import { openFileInput } from '../../regrade/fileInput';
import { offlineJudge } from '../../regrade/grader';
import { gradeRun } from '../../regrade/gradeRun';
import { isRunDirectory, openRunInput } from '../../regrade/runInput';
import type { GradeInput } from '../../regrade/types';
import { loadBaseline } from '../../reports';
import type { GradeFlags } from '../commands/grade';
import { ExitCode, exitCodeFor } from '../follow';
import { createLogger, type Logger } from '../logger';
import { parseRate, UsageError } from '../runOptions';
import { summaryTable } from '../summaryTable';
import { newRunId } from './run';

/** Problems printed before "… and N more". */
const SHOWN = 50;
/** A progress line at most this often on long inputs. */
const PROGRESS_EVERY_MS = 2000;

async function openInput(path: string, flags: GradeFlags): Promise<GradeInput> {
  return (await isRunDirectory(path)) ? openRunInput(path) : openFileInput(path, { delimiter: flags.delimiter });
}

function concurrencyOf(raw: string | undefined): number {
  if (raw === undefined) return 8;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--concurrency must be a whole number >= 1, got "${raw}"`);
  return n;
}

/** An explicit baseline is read before anything is graded, so a wrong path costs nothing. */
async function checkBaseline(ref: string | undefined): Promise<void> {
  if (!ref || ref === 'latest') return;
  try {
    await loadBaseline(resolve(ref));
  } catch (err) {
    throw new UsageError(`--baseline: ${err instanceof Error ? err.message : String(err)}`);
  }
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
    const input = await openInput(resolve(inputPath), flags);
    if (input.issueCount > 0) {
      for (const issue of input.issues.slice(0, SHOWN)) log.error(formatIssue(issue));
      if (input.issueCount > SHOWN) log.error(`… and ${input.issueCount - SHOWN} more`);
      log.error(`${inputPath}: ${input.issueCount} problem(s); nothing was graded. Fix the input and run again.`);
      return ExitCode.usage;
    }
    const config: RunConfig | undefined = flags.config ? await loadRunConfig(flags.config) : undefined;
    const failUnder = flags.failUnder !== undefined ? parseRate(flags.failUnder) : config?.failUnder;
    const concurrency = concurrencyOf(flags.concurrency);
    const maxErrorRate = flags.maxErrorRate !== undefined ? parseRate(flags.maxErrorRate, '--max-error-rate') : config?.maxErrorRate;
    await checkBaseline(flags.baseline);
    const judge = offlineJudge();

    const runId = `grade-${newRunId()}`;
    log.info(`grading ${input.rows} recorded answers from ${inputPath} as run ${runId} (nothing is sent to the Site Chat API)`);
    const { summary, outDir } = await gradeRun(input, {
      runsDir: resolve(process.env.SITECHAT_RUNS_DIR ?? 'runs'), runId, config, failUnder, maxErrorRate, siteId: flags.site, concurrency, judge,
      baseline: flags.baseline, outDir: flags.out, onProgress: progress(log, input.rows),
    });
    for (const warning of input.warnings) log.warn(warning);
    if (flags.json) log.out(JSON.stringify({ ...summary, reportDir: outDir }, null, 2));
    else log.out(summaryTable(summary));
    log.info(`reports: ${outDir}`);
    return exitCodeFor({ summary, cancelled: false });
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    // ConfigError, DatasetFileError, JudgeConfigError …: the input or the settings, not the grading.
    const usage = err instanceof UsageError || (err instanceof Error && /config|dataset/i.test(err.name));
    return usage ? ExitCode.usage : ExitCode.runFailed;
  }
}
