import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  setHandler,
  startChild,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { SiteRunRef } from '../src/reports/multiSite';
import { CANCELLED_BEFORE_START } from '../src/reports/siteVerdict';
import { TaskQueue } from '../src/temporal/taskQueues';
import { listing, local } from './activityProxies';
import { multiSiteQuery, siteRunId } from './multiSiteSignals';
import type { MultiSiteInput, MultiSiteResult, MultiSiteState } from './multiSiteTypes';
import { describeFailure } from './activityFailure';
import { notifyEnd } from './notifying';
import { runIdFromWorkflowId, type runDataset } from './run';
import { cancelSignal, progressQuery } from './signals';
import { emptyCounts, type RunInput, type RunProgress } from './types';

/** The workflow type each site's run is started as: an ordinary evaluation, so `sitechat watch <runId>-<site>` works. */
const SITE_WORKFLOW_TYPE = 'evaluationRun';

/**
 * One dataset against several sites: every site's access is checked first (a typo in one site name sends nothing to
 * any site), then one ordinary evaluation run per site, all at once, then one combined report. Sites do not slow
 * each other: each site's API calls carry its own fairness key and budget. Each site keeps its own full reports,
 * baseline (`--baseline latest` picks the same dataset, site and model) and gate; the run passes when every site's
 * gate passes. A cancel reaches every site's run, which drains and writes its reports as a single run does.
 */
export async function multiSiteRun(given: MultiSiteInput): Promise<MultiSiteResult> {
  const { workflowId, startTime } = workflowInfo();
  const runId = given.runId || runIdFromWorkflowId(workflowId);
  const sites = given.sites.map((siteId) => ({ siteId, runId: siteRunId(runId, siteId), workflowId: `${workflowId}-${siteId}`, done: false }));
  const state: MultiSiteState = { runId, sites };
  const children = new Map<string, ChildWorkflowHandle<typeof runDataset>>();
  let cancelled = false;
  let phase: RunProgress['phase'] = 'preparing';

  setHandler(multiSiteQuery, () => state);
  // Clients that know multi-site runs query each site (`multiSiteQuery`); this answers the others coarsely.
  setHandler(progressQuery, () => ({
    runId, total: 0, counts: emptyCounts(), inFlight: 0, chunksDone: sites.filter((s) => s.done).length, chunks: sites.length,
    startedAt: startTime.getTime(), updatedAt: Date.now(), throughput: 0, cancelling: cancelled, phase,
  }));
  const cancel = (): void => {
    cancelled = true;
    for (const child of children.values()) {
      void CancellationScope.nonCancellable(() => child.signal(cancelSignal)).catch(() => undefined);
    }
  };
  setHandler(cancelSignal, cancel);
  CancellationScope.current().cancelRequested.catch(cancel);

  return CancellationScope.nonCancellable(async () => {
    const refused = await Promise.all(given.sites.map((siteId) =>
      listing(siteId).preflight({ siteId }).then(() => undefined, (err: unknown) => `site ${siteId}: ${describeFailure(err).message}`)));
    const problems = refused.filter((p): p is string => p !== undefined);
    if (problems.length > 0) {
      throw ApplicationFailure.nonRetryable(`${problems.join('; ')} (nothing was asked on any site)`, 'RunAborted');
    }

    phase = 'running';
    const refs: SiteRunRef[] = [];
    await Promise.all(sites.map(async (site) => {
      const ref: SiteRunRef = { siteId: site.siteId, runId: site.runId, workflowId: site.workflowId };
      if (given.options.outDir) ref.reportDir = `${given.options.outDir}/${site.siteId}`;
      refs.push(ref);
      if (cancelled) {
        ref.failure = { message: 'the run was cancelled before this site started', type: CANCELLED_BEFORE_START };
        site.done = true;
        return;
      }
      const input: RunInput = {
        kind: 'evaluation', runId: site.runId, dataset: given.dataset,
        // The parent notifies once for every site: the sites' runs do not.
        options: { ...given.options, notify: undefined, siteId: site.siteId, outDir: ref.reportDir },
      };
      const child = await startChild<typeof runDataset>(SITE_WORKFLOW_TYPE, { workflowId: site.workflowId, taskQueue: TaskQueue.main, args: [input] });
      children.set(site.siteId, child);
      // A cancel that came while this child was starting reaches it now.
      if (cancelled) void CancellationScope.nonCancellable(() => child.signal(cancelSignal)).catch(() => undefined);
      try {
        const result = await child.result();
        ref.reportDir = result.reportDir;
      } catch (err) {
        // The site's own reason ("401 invalid_api_key …"), not Temporal's "child workflow execution failed".
        ref.failure = describeFailure(err instanceof ChildWorkflowFailure ? err.cause : err);
      } finally {
        site.done = true;
      }
    }));

    phase = 'finishing';
    const ordered = given.sites.map((siteId) => refs.find((r) => r.siteId === siteId) as SiteRunRef);
    const report = {
      runId, workflowId, kind: 'evaluation' as const, dataset: given.dataset.path, startedAt: startTime.toISOString(), sites: ordered,
      outDir: given.options.outDir, cancelled,
    };
    const result: MultiSiteResult = await local.writeMultiSiteReport(report);
    const notifications = await notifyEnd(given.options.notify, { kind: 'multiSite', report, reportDir: result.reportDir });
    if (notifications) result.notifications = notifications;
    phase = 'done';
    const failed = ordered.filter((r) => r.failure && r.failure.type !== CANCELLED_BEFORE_START);
    if (failed.length > 0) {
      const why = failed.map((r) => `site ${r.siteId}: ${r.failure?.message ?? ''}`).join('; ');
      throw ApplicationFailure.nonRetryable(`${why} (combined report written to ${result.reportDir})`, 'RunAborted', ...(notifications ? [{ notifications }] : []));
    }
    return result;
  });
}
