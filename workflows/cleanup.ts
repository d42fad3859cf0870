import {
  ApplicationFailure,
  CancellationScope,
  ContinueAsNew,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { newCursor } from '../src/cleanup/cursor';
import { pageThrough } from '../src/cleanup/loop';
import { buildCleanupReport } from '../src/cleanup/report';
import { cleanupSettings, validateCleanupInput } from '../src/cleanup/rule';
import { StopReason, type CleanupInput, type CleanupReport } from '../src/cleanup/types';
import { CLEANUP_FAILED, cleanupProgressQuery } from '../src/cleanup/workflow';
import { closingBatches, listing, local } from './activityProxies';
import { describeFailure } from './activityFailure';
import { notifyEnd } from './notifying';
import { runIdFromWorkflowId } from './run';

/**
 * Pages listed per run before continuing as new. A page costs ~6 history events plus ~6 per close batch (at most
 * 5 of 100 sessions at the 500 page size), so a run stays below ~1,500 events whatever the site's size.
 */
export const PAGES_PER_RUN = 40;

/**
 * Lists a site's sessions page by page (one activity per page, on the list queue) and closes the active ones that
 * match the rule, batch by batch on the close queue. Only the ids of one page are ever in flight; the cursor carries
 * counts and bounded samples across continue-as-new. "Now" is the workflow's start time, fixed for the whole run.
 *
 * Offset paging over a list that changes while it is paged can skip sessions; a pass in which `pagination.total`
 * changed is followed by a re-list pass (up to `maxPasses`). Closing is idempotent, so is the whole cleanup.
 */
export async function sessionCleanup(input: CleanupInput): Promise<CleanupReport> {
  const problems = validateCleanupInput(input);
  if (problems.length > 0) throw ApplicationFailure.nonRetryable(`cleanup input: ${problems.join('; ')}`, 'InvalidCleanupInput');
  const settings = cleanupSettings(input);
  const { workflowId } = workflowInfo();
  const cursor = input.cursor ?? newCursor(input, Date.now());
  let cancelled = false;
  setHandler(cleanupProgressQuery, () => ({
    pass: cursor.pass, pages: cursor.pages, offset: cursor.offset, total: cursor.passTotal, counts: { ...cursor.counts },
  }));
  CancellationScope.current().cancelRequested.catch(() => (cancelled = true));

  return CancellationScope.nonCancellable(async () => {
    let stoppedBy: StopReason | undefined;
    let error: string | undefined;
    try {
      stoppedBy = await pageThrough(input, cursor, settings, {
        list: (page) => listing(input.siteId, input.api).listCleanupPage(page),
        close: (sessionIds) => closingBatches(input.siteId, input.api).closeSessions({ siteId: input.siteId, sessionIds }),
        cancelled: () => cancelled,
        async beforePage(pagesThisRun) {
          if (pagesThisRun >= PAGES_PER_RUN || workflowInfo().continueAsNewSuggested) {
            await continueAsNew<typeof sessionCleanup>({ ...input, cursor });
          }
        },
      });
    } catch (err) {
      if (err instanceof ContinueAsNew) throw err;
      stoppedBy = StopReason.error;
      error = describeFailure(err).message;
    }
    const report = buildCleanupReport(input, cursor, settings, {
      reportId: runIdFromWorkflowId(workflowId), workflowId, finishedAt: new Date(Date.now()).toISOString(), stoppedBy, error,
    });
    report.reportPath = await local.writeCleanupReport(report);
    const { reportId, siteId, dryRun, startedAt, finishedAt, counts, failureReasons, complete } = report;
    const facts = { reportId, workflowId, siteId, dryRun, startedAt, finishedAt, counts, failureReasons, complete, stoppedBy: report.stoppedBy, error: report.error };
    const notifications = await notifyEnd(input.notify, { kind: 'cleanup', facts, reportPath: report.reportPath });
    if (notifications) report.notifications = notifications;
    if (error !== undefined) {
      throw ApplicationFailure.nonRetryable(`session cleanup failed: ${error} (report: ${report.reportPath})`, CLEANUP_FAILED, report);
    }
    return report;
  });
}
