import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { buildCleanupMessage, buildMultiSiteMessage, buildRunMessage, cleanupVerdict, type CleanupFacts, type Draft } from '../src/notify/build';
import { deliver, type Delivered } from '../src/notify/deliver';
import { deliveryIdFor } from '../src/notify/deliveryId';
import { NOTIFY_HEARTBEAT_MS, NOTIFY_MAX_ATTEMPTS, NOTIFY_MAX_RETRY_AFTER_MS } from '../src/notify/policy';
import { writeReportNote } from '../src/render/reportNote';
import { DEFAULT_TRIGGERS, destinationLabel, type NotifyOutcome, type NotifySpec } from '../src/domain/notify';
import { firedTrigger } from '../src/notify/triggers';
import { REPORT_BASE_URL_VARIABLE } from '../src/notify/message';
import { readJsonIfExists } from '../src/shared/fileIo';
import { previousCompatibleRun } from '../src/analysis/baselinePrevious';
import { summarizeMultiSite } from '../src/analysis/multiSite';
import type { ActivityDeps } from './deps';
import { withHeartbeats } from './heartbeat';
import type { MultiSiteReportInput } from './multiSite';

/** What ended, as the workflow knows it: names and ids, the notification is built from the store. */
export type NotifySubject =
  | { kind: 'run'; runId: string; reportDir: string; baseline?: string }
  | { kind: 'multiSite'; report: MultiSiteReportInput; reportDir: string }
  | { kind: 'cleanup'; facts: CleanupFacts; reportPath?: string };

export interface NotifyInput {
  /** Env var NAMES only: the URLs and secrets are read from this worker's environment. */
  spec: NotifySpec;
  subject: NotifySubject;
}

export function notifyActivities(deps: ActivityDeps) {
  const env = deps.notifyEnv ?? process.env;

  /** The last cleanup of the same site before this one (its report in this worker's runs directory) failed. */
  async function previousCleanupFailed(facts: CleanupFacts): Promise<boolean | undefined> {
    const names = await readdir(deps.runsDir).catch(() => [] as string[]);
    let newest: CleanupFacts | undefined;
    for (const name of names.filter((n) => /^cleanup-.*\.json$/u.test(n))) {
      const report = (await readJsonIfExists(join(deps.runsDir, name)).catch(() => undefined)) as CleanupFacts | undefined;
      if (!report || report.siteId !== facts.siteId || report.reportId === facts.reportId || report.dryRun || !(report.finishedAt < facts.startedAt)) continue;
      if (!newest || report.finishedAt > newest.finishedAt) newest = report;
    }
    return newest ? cleanupVerdict(newest) === 'failed' : undefined;
  }

  async function draftOf(subject: NotifySubject, reportBaseUrl: string | undefined): Promise<{ draft: Draft; previousFailed?: boolean }> {
    if (subject.kind === 'cleanup') return { draft: buildCleanupMessage(subject.facts), previousFailed: await previousCleanupFailed(subject.facts) };
    if (subject.kind === 'multiSite') {
      const summary = await summarizeMultiSite(deps.store, subject.report);
      const previous = await Promise.all(summary.sites.map(async (line) => {
        const site = await deps.store.getSummary(line.runId).catch(() => undefined);
        return site ? previousCompatibleRun(deps.store, { runId: site.runId, datasetSha256: site.datasetSha256, siteId: site.siteId, model: site.model, startedAt: site.startedAt }) : undefined;
      }));
      return { draft: await buildMultiSiteMessage(deps.store, summary, { reportBaseUrl }), previousFailed: previous.some((p) => p?.failed) };
    }
    const baselineDir = subject.baseline && subject.baseline !== 'latest' ? subject.baseline : undefined;
    const draft = await buildRunMessage(deps.store, subject.runId, { reportBaseUrl, baselineDir });
    const summary = await deps.store.getSummary(subject.runId);
    const previous = summary && await previousCompatibleRun(deps.store, { runId: summary.runId, datasetSha256: summary.datasetSha256, siteId: summary.siteId, model: summary.model, startedAt: summary.startedAt });
    return { draft, previousFailed: previous?.failed };
  }

  /**
   * The outcomes into the results store, where every later rendering of the run's reports (a review save, the CLI's
   * copy from PostgreSQL) finds them, then into the report files already written. A failure here is logged, never
   * thrown: a retry would report delivered notifications as failed.
   */
  async function note(subject: NotifySubject, outcomes: NotifyOutcome[]): Promise<void> {
    // A cleanup's report is one file among many in the runs directory: its notes go into the outcome only.
    if (subject.kind === 'cleanup') return;
    const runId = subject.kind === 'run' ? subject.runId : subject.report.runId;
    const warn = (what: string) => (err: unknown): void => Context.current().log.warn(`notifications not noted in ${what}: ${String(err)}`);
    await deps.store.recordNotifications(runId, outcomes).catch(warn('the results store'));
    await writeReportNote(subject.reportDir, outcomes).catch(warn('the report'));
  }

  return {
    /**
     * Notifies every destination of `spec` that a run, multi-site run or cleanup ended, when one of its triggers
     * fires. Each destination is sent at most once per delivery id as far as the ledger can tell (src/notify/deliver.ts);
     * a retryable failure (429, 5xx, network) throws for Temporal to retry after the receiver's Retry-After, until
     * the last attempt, which records it as failed. Never fails the run: the outcomes are returned and noted in the
     * report.
     */
    async notify({ spec, subject }: NotifyInput): Promise<NotifyOutcome[]> {
      return withHeartbeats(async () => {
        const info = Context.current().info;
        const reportBaseUrl = env[REPORT_BASE_URL_VARIABLE]?.trim() || undefined;
        const { draft, previousFailed } = await draftOf(subject, reportBaseUrl);
        const trigger = firedTrigger(spec.on.length > 0 ? spec.on : DEFAULT_TRIGGERS, draft.verdict, previousFailed);
        if (trigger === undefined) {
          const outcomes = spec.destinations.map((d): NotifyOutcome => ({ destination: destinationLabel(d), kind: d.kind, status: 'not_sent' }));
          await note(subject, outcomes);
          return outcomes;
        }
        const message = { ...draft, trigger };
        const lastAttempt = info.attempt >= NOTIFY_MAX_ATTEMPTS;
        const execution = info.workflowExecution;
        if (!execution) throw ApplicationFailure.nonRetryable('notify runs only inside a workflow (its delivery id comes from the execution)', 'NotifyOutsideWorkflow');
        const results: Delivered[] = [];
        for (const d of spec.destinations) {
          const id = deliveryIdFor(execution.workflowId, execution.runId, d);
          results.push(await deliver(d, message, id, { ledger: deps.notifyLedger, env, lastAttempt }));
        }
        const retry = results.filter((r) => r.retry);
        if (retry.length > 0) {
          const waits = retry.map((r) => r.retry?.afterMs).filter((ms): ms is number => ms !== undefined);
          throw ApplicationFailure.create({
            type: 'NotificationRetry',
            message: `notification not delivered yet: ${retry.map((r) => `${r.outcome.destination}: ${r.retry?.reason ?? ''}`).join('; ')}`,
            nextRetryDelay: waits.length > 0 ? Math.min(NOTIFY_MAX_RETRY_AFTER_MS, Math.max(1000, ...waits)) : undefined,
          });
        }
        const outcomes = results.map((r) => r.outcome);
        await note(subject, outcomes);
        return outcomes;
      }, NOTIFY_HEARTBEAT_MS);
    },
  };
}
