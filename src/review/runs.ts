/**
 * Which runs a review covers: the run named, or — for a multi-site run, whose parent has no run of its own in the
 * store — each of its sites' runs (`<runId>-<site>`). `latest` is the newest finished evaluation.
 */
import { join } from 'node:path';
import { readJsonIfExists } from '../shared/fileIo';
import { summarizeMultiSite } from '../analysis/multiSite';
import { type MultiSiteSummary } from '../domain/multiSite';
import { writeMultiSiteReports } from '../render/multiSiteRender';
import type { ResultsStore } from '../store/store';
import { RunKind, type RunMeta } from '../domain/results';
import { siteRunId } from '../../workflows/multiSiteSignals';
import { ReviewRunError } from './errors';
import { reportDirOf } from './refresh';

export interface ReviewTarget {
  /** The run id given (resolved from `latest`). */
  runId: string;
  /** Single-site: one; multi-site: one per site, in site order. */
  runs: RunMeta[];
  multiSite: boolean;
}

async function latestRun(store: ResultsStore): Promise<string> {
  const [newest] = await store.listRuns({ kind: RunKind.evaluation, finished: true });
  if (!newest) throw new ReviewRunError('no finished evaluation run in the results store to review');
  return newest.runId;
}

export async function resolveReviewTarget(store: ResultsStore, ref: string): Promise<ReviewTarget> {
  const runId = ref === 'latest' ? await latestRun(store) : ref;
  const meta = await store.getMeta(runId);
  if (meta) {
    if (meta.kind !== RunKind.evaluation) throw new ReviewRunError(`run ${runId} is a ${meta.kind}: only evaluation runs have grades to review`);
    return { runId, runs: [meta], multiSite: false };
  }
  const sites = (await store.listRuns({ kind: RunKind.evaluation })).filter((m) => m.runId === siteRunId(runId, m.siteId));
  if (sites.length === 0) throw new ReviewRunError(`no run ${runId} in the results store (see \`npx sitechat runs\`)`);
  sites.sort((a, b) => a.siteId.localeCompare(b.siteId));
  return { runId, runs: sites, multiSite: true };
}

/**
 * The combined report of a multi-site run, rewritten from its sites' stored summaries after one of them changed.
 * Its parent's workflow id and start come from the combined summary.json written at the end of the run.
 */
export async function refreshMultiSite(store: ResultsStore, target: ReviewTarget, runsDir: string): Promise<MultiSiteSummary | undefined> {
  if (!target.multiSite) return undefined;
  const outDir = reportDirOf(runsDir, target.runId);
  const before = (await readJsonIfExists(join(outDir, 'summary.json')).catch(() => undefined)) as Partial<MultiSiteSummary> | undefined;
  const first = target.runs[0];
  const summary = await summarizeMultiSite(store, {
    runId: target.runId,
    workflowId: before?.workflowId ?? `sitechat-evaluation-${target.runId}`,
    kind: RunKind.evaluation,
    dataset: first?.dataset ?? '',
    startedAt: before?.startedAt ?? first?.startedAt ?? new Date().toISOString(),
    sites: target.runs.map((m) => ({ siteId: m.siteId, runId: m.runId, workflowId: m.workflowId, reportDir: reportDirOf(runsDir, m.runId) })),
  });
  // The run's notification outcomes are in the store: the rewritten report.md keeps its Notifications section.
  await writeMultiSiteReports(summary, outDir, undefined, await store.getNotifications(target.runId));
  return summary;
}
