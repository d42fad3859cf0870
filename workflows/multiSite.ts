import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  setHandler,
  startChild,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { SiteRunRef } from '../src/domain/multiSite';
import { CANCELLED_BEFORE_START } from '../src/domain/siteVerdict';
import { TaskQueue } from '../src/temporal/taskQueues';
import { listing, local } from './activityProxies';
import { multiSiteQuery, siteRunId } from './multiSiteSignals';
import type { MultiSiteInput, MultiSiteResult, MultiSiteState, VariantSpec } from '../src/domain/multiSite';
import { describeFailure } from './activityFailure';
import { notifyEnd } from './notifying';
import { evaluationRun, runIdFromWorkflowId } from './run';
import { cancelSignal, progressQuery } from './signals';
import { emptyCounts, type RunInput, type RunProgress } from '../src/domain/run';

/** The options a variant's run starts with: the run's, with the variant's settings over them. */
function variantOptions(given: MultiSiteInput, variant: VariantSpec, parentRunId: string, outDir: string | undefined): RunInput['options'] {
  const { options } = given;
  return {
    // The parent notifies once for every variant: the variants' runs do not.
    ...options, notify: undefined, siteId: variant.siteId, outDir,
    ...(variant.model !== undefined && { model: variant.model }),
    ...(variant.responseLanguage !== undefined && { responseLanguage: variant.responseLanguage }),
    ...(variant.uiLocale !== undefined && { uiLocale: variant.uiLocale }),
    variant: { parentRunId, name: variant.name },
  };
}

/**
 * One dataset in several variants (sites, models, answer languages, locales; `given.variants`, or one per site of
 * `given.sites`): every site's access is checked first (a typo in one site name sends nothing anywhere), then one
 * ordinary evaluation run per variant, all at once, then one combined report and the comparison of the variants.
 * Each site's API calls carry its own fairness key and budget: sites do not slow each other, and variants on one
 * site share its budget. Each variant keeps its own full reports, baseline and gate; the run passes when every
 * variant's gate passes (and, with `reference`, no variant beats it significantly). A cancel reaches every variant's
 * run, which drains and writes its reports as a single run does.
 *
 * A multi-site run's variants are named after their sites: preflights, then a child per site with workflow id
 * `<workflowId>-<site>`, then the report activity.
 */
export async function multiSiteRun(given: MultiSiteInput): Promise<MultiSiteResult> {
  const { workflowId, startTime } = workflowInfo();
  const runId = given.runId || runIdFromWorkflowId(workflowId);
  const variants: VariantSpec[] = given.variants ?? given.sites.map((siteId) => ({ name: siteId, siteId }));
  const noun = given.variants ? 'variant' : 'site';
  const sites = variants.map((v) => ({ siteId: v.siteId, name: v.name, runId: siteRunId(runId, v.name), workflowId: `${workflowId}-${v.name}`, done: false }));
  const state: MultiSiteState = { runId, sites, ...(given.variants && { variants: given.variants }), ...(given.reference !== undefined && { reference: given.reference }) };
  const children = new Map<string, ChildWorkflowHandle<typeof evaluationRun>>();
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
      listing(siteId, given.options.api).preflight({ siteId }).then(() => undefined, (err: unknown) => `site ${siteId}: ${describeFailure(err).message}`)));
    const problems = refused.filter((p): p is string => p !== undefined);
    if (problems.length > 0) {
      throw ApplicationFailure.nonRetryable(`${problems.join('; ')} (nothing was asked on any site)`, 'RunAborted');
    }

    phase = 'running';
    const refs: SiteRunRef[] = [];
    await Promise.all(sites.map(async (site, i) => {
      const variant = variants[i] as VariantSpec;
      const ref: SiteRunRef = { siteId: site.siteId, runId: site.runId, workflowId: site.workflowId, ...(given.variants && { variant }) };
      if (given.options.outDir) ref.reportDir = `${given.options.outDir}/${site.name}`;
      refs.push(ref);
      if (cancelled) {
        ref.failure = { message: `the run was cancelled before this ${noun} started`, type: CANCELLED_BEFORE_START };
        site.done = true;
        return;
      }
      const input: RunInput = { kind: 'evaluation', runId: site.runId, dataset: given.dataset, options: variantOptions(given, variant, runId, ref.reportDir) };
      // An ordinary evaluation run, so `sitechat watch <runId>-<site>` works.
      const child = await startChild(evaluationRun, { workflowId: site.workflowId, taskQueue: TaskQueue.main, args: [input] });
      children.set(site.name, child);
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
    const ordered = sites.map((site) => refs.find((r) => r.runId === site.runId) as SiteRunRef);
    const report = {
      runId, workflowId, kind: 'evaluation' as const, dataset: given.dataset.path, startedAt: startTime.toISOString(), sites: ordered,
      outDir: given.options.outDir, cancelled, ...(given.reference !== undefined && { reference: given.reference }),
    };
    const result: MultiSiteResult = await local.writeMultiSiteReport(report);
    const notifications = await notifyEnd(given.options.notify, { kind: 'multiSite', report, reportDir: result.reportDir });
    if (notifications) result.notifications = notifications;
    phase = 'done';
    const failed = ordered.filter((r) => r.failure && r.failure.type !== CANCELLED_BEFORE_START);
    if (failed.length > 0) {
      const why = failed.map((r) => `${noun} ${r.variant?.name ?? r.siteId}: ${r.failure?.message ?? ''}`).join('; ');
      throw ApplicationFailure.nonRetryable(`${why} (combined report written to ${result.reportDir})`, 'RunAborted', ...(notifications ? [{ notifications }] : []));
    }
    return result;
  });
}
