/**
 * After a label: the run's summary and verdict computed again from its rows, with the settings the run was judged
 * by (gate, baseline, sessions as counted by the run), its five report files rewritten, and history.html refreshed —
 * the same code as the end of a run and `sitechat grade` (`finalizeRun`, `writeHistory`).
 */
import { join } from 'node:path';
import { loadBaselineFromStore, type BaselineInput } from '../analysis/baseline';
import { writeHistory } from '../render/historyPage';
import type { ResultsStore } from '../store/store';
import type { RunSummary } from '../domain/results';
import { finalizeRun } from '../render/writeReports';

export interface RefreshOptions {
  /** Where the run's report files and history.html live on this host. */
  runsDir: string;
}

/** Where the run's reports are: `<runsDir>/<runId>` (the worker's and the CLI's default). */
export function reportDirOf(runsDir: string, runId: string): string {
  return join(runsDir, encodeURIComponent(runId));
}

export async function refreshRun(store: ResultsStore, runId: string, options: RefreshOptions): Promise<RunSummary> {
  const before = await store.getSummary(runId);
  const baselineId = before?.baseline?.runId;
  const baseline: BaselineInput | undefined = baselineId && (await store.getMeta(baselineId)) ? await loadBaselineFromStore(store, baselineId) : undefined;
  const settings = before?.gateSettings;
  const { summary } = await finalizeRun(store, runId, {
    outDir: reportDirOf(options.runsDir, runId),
    ...(baseline && before?.baselineSelection
      ? { baselineChoice: { baseline, selection: before.baselineSelection, unavailable: false } }
      : { baseline }),
    ...(before && { sessions: before.sessions, cancelled: before.cancelled, ...(before.finishedAt && { finishedAt: before.finishedAt }) }),
    gate: {
      failUnder: settings?.failUnder, maxErrorRate: settings?.maxErrorRate, maxUncertainRate: settings?.maxUncertainRate,
      allowSideEffectFailures: settings?.allowSideEffectFailures, baseline: settings?.baseline,
      // The run was judged with a baseline requested: keep that, even when its run is no longer in the store.
      ...(settings?.baseline !== undefined && { baselineGiven: true, baselineUnavailable: !baseline && before?.baselineSelection?.chosen === undefined }),
    },
  });
  await writeHistory(store, options.runsDir);
  return summary;
}
