import { basename, resolve } from 'node:path';
import { findLatestRun, finalizeRun, loadBaseline, loadBaselineFromStore, type BaselineInput } from '../src/reports';
import { writeBackfillOutput } from '../src/backfill/output';
import type { RunResult } from '../workflows/types';
import type { ActivityDeps } from './deps';
import type { FinalizeInput } from './types';

export function finalizeActivities(deps: ActivityDeps) {
  /** `--baseline latest` is resolved here, when the run ends, so a scheduled run compares with the newest run. */
  async function baselineFor({ runId, input }: FinalizeInput): Promise<BaselineInput | undefined> {
    const ref = input.options.baseline;
    if (!ref) return undefined;
    if (ref === 'latest') {
      const latest = await findLatestRun(deps.store, input.dataset.path, input.options.siteId, runId);
      return latest ? loadBaselineFromStore(deps.store, latest.runId) : undefined;
    }
    return loadBaseline(resolve(ref));
  }

  return {
    /** Summary, baseline comparison, quality gate and the five report files. Safe to repeat. */
    async finalizeRun(fin: FinalizeInput): Promise<RunResult> {
      const outDir = fin.input.options.outDir ?? resolve(deps.runsDir, fin.runId);
      const baseline = await baselineFor(fin);
      const { summary, paths } = await finalizeRun(deps.store, fin.runId, {
        outDir,
        baseline,
        sessionsClosed: fin.sessionsClosed,
        // `latest` with no earlier run is a first run, not a failure: the gate counts only a baseline that was found.
        gate: { failUnder: fin.input.options.failUnder },
      });
      const outputFile = fin.input.options.outFile;
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
  };
}
