/**
 * The run before this one that a `recovered` notification compares with: the newest finished, not cancelled
 * evaluation run of the same dataset sha256, site and model that started before this run — the compatibility rules
 * of `--baseline latest` (baselineSelect.ts), without its error-rate limit: a run that failed on errors is exactly
 * the failure a recovery follows.
 */
import { wasCancelled } from './baselineSelect';
import type { ResultsStore } from '../store/store';
import { RunKind, type GateVerdict } from '../domain/results';

export interface PreviousTarget {
  runId: string;
  datasetSha256: string;
  siteId: string;
  model: string | null;
  /** ISO time this run started: runs started later (or at the same time) are not "before". */
  startedAt: string;
}

export interface PreviousRun {
  runId: string;
  /** Its gate verdict; undefined for a run without a gate. */
  verdict?: GateVerdict;
  /** Its gate failed (`failed`), as opposed to passed or judged nothing. */
  failed: boolean;
}

export async function previousCompatibleRun(store: ResultsStore, target: PreviousTarget): Promise<PreviousRun | undefined> {
  const runs = await store.listRuns({ siteId: target.siteId, kind: RunKind.evaluation, finished: true });
  for (const meta of runs) {
    if (meta.runId === target.runId || meta.datasetSha256 !== target.datasetSha256 || meta.startedAt >= target.startedAt) continue;
    const summary = await store.getSummary(meta.runId).catch(() => undefined);
    if (!summary || typeof summary.total !== 'number' || wasCancelled(summary)) continue;
    if ((summary.model ?? null) !== target.model) continue;
    const verdict = summary.gate?.verdict;
    return { runId: meta.runId, verdict, failed: verdict === 'failed' };
  }
  return undefined;
}
