import { basename, resolve } from 'node:path';
import { Context } from '@temporalio/activity';
import { finalizeRun } from '../src/render/writeReports';
import { writeHistory } from '../src/render/historyPage';
import { writeBackfillOutput } from '../src/render/backfillOutput';
import { recordReportDir } from '../src/render/reportDirs';
import type { RunResult } from '../src/domain/run';
import { baselineFor } from './baselineFor';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import type { FinalizeInput } from './types';

/** The end of a run: `finalizeRun` (summary, baseline, gate, the report files, a backfill's answers file). */
export function finalizeActivities(deps: ActivityDeps) {
  // Streams the whole store into five reports: heartbeats show the worker is alive however long that takes.
  return heartbeating({
    /** Summary, baseline comparison, quality gate and the five report files. Safe to repeat. */
    async finalizeRun(fin: FinalizeInput): Promise<RunResult> {
      const outDir = fin.input.options.outDir ?? resolve(deps.runsDir, fin.runId);
      const meta = await deps.store.getMeta(fin.runId);
      const { options } = fin.input;
      const { summary, paths } = await finalizeRun(deps.store, fin.runId, {
        outDir,
        baselineChoice: await baselineFor(deps, fin, meta?.datasetSha256 ?? fin.input.dataset.sha256),
        sessionsClosed: fin.sessionsClosed,
        sessionsCloseFailed: fin.sessionsCloseFailed ?? 0,
        cancelled: fin.cancelled,
        stopped: fin.stopped,
        gate: { failUnder: options.failUnder, maxErrorRate: options.maxErrorRate, maxUncertainRate: options.maxUncertainRate, allowSideEffectFailures: options.allowSideEffectFailures },
        // The CI job page (GitHub Actions): the worker that finalizes is the CLI's own in a CI job.
        stepSummaryFile: process.env.GITHUB_STEP_SUMMARY || undefined,
      });
      // The page a nightly job's reader opens, linking reports written elsewhere (--out); a failure to refresh it must
      // not fail a finished run.
      await recordReportDir(deps.runsDir, fin.runId, outDir)
        .then(() => writeHistory(deps.store, deps.runsDir, undefined, { onSkip: (warning) => Context.current().log.warn(`history.html: ${warning}`) }))
        .catch((err: unknown) => Context.current().log.warn(`history.html not updated: ${String(err)}`));
      const outputFile = options.outFile;
      if (outputFile) await writeBackfillOutput(outputFile, deps.store.read(fin.runId));
      return {
        runId: fin.runId,
        summary,
        outputFile,
        reportDir: outDir,
        reportFiles: Object.values(paths).map((p) => basename(p)),
        cancelled: fin.cancelled,
      };
    },
  });
}
