import { type Client, WorkflowFailedError } from '@temporalio/client';
import { clientFor } from '../../../temporal/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  CLEANUP_FAILED, CLEANUP_WORKFLOW_PREFIX, CLEANUP_WORKFLOW_TYPE, cleanupProgressQuery, formatCleanupReport, type CleanupInput, type CleanupReport,
} from '../../../cleanup';
import { cleanupInputFromFlags, CleanupOptionError } from './options';
import { TaskQueue } from '../../../temporal/taskQueues';
import { startWorkflow } from '../../../../workflows/starts';
import { ExitCode, failureText } from '../../follow/follow';
import { notifyProblems } from '../run/notifyOptions';
import { createLogger, type Logger } from '../../logger';
import { defaultSiteId } from '../run/preflight';
import { openRuntime } from '../../runtime';
import { isUsageError } from '../../usageErrors';
import { UsageError } from '../../usageError';
import { isSiteList, parseSiteList } from '../run/siteList';
import { newRunId } from '../run/action';
import type { CleanupFlags } from './options';

export interface CleanupCommandFlags extends CleanupFlags {
  json?: boolean;
  worker: boolean;
}

export { defaultSiteId } from '../run/preflight';

/** The report carried by a failed cleanup (it writes its report before failing). */
function failedReport(err: unknown): CleanupReport | undefined {
  const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== CLEANUP_FAILED) return undefined;
  return cause.details?.[0] as CleanupReport | undefined;
}

/**
 * `sitechat cleanup`: start `sessionCleanup` (one per site for `--site a,b,c`, all at once), show progress, print the
 * report(s). Exit 0, 3 on any failure of any site, 2 for bad flags.
 */
export async function cleanupAction(flags: CleanupCommandFlags, io: { log?: Logger } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  let input: CleanupInput;
  let sites: string[];
  try {
    input = cleanupInputFromFlags(flags, { siteId: defaultSiteId() });
    sites = isSiteList(input.siteId) ? parseSiteList(input.siteId, flags.site === undefined ? 'SITECHAT_SITE_ID' : '--site') : [input.siteId];
    const unset = notifyProblems(flags, undefined, process.env, flags.worker);
    if (unset.length > 0) throw new UsageError(unset.join('\n'));
  } catch (err) {
    if (!(err instanceof CleanupOptionError) && !(err instanceof UsageError)) throw err;
    log.error(err.message);
    return ExitCode.usage;
  }
  let runtime;
  const cancels: (() => Promise<void>)[] = [];
  const onSigint = (): void => {
    log.info('cancelling: the cleanup stops after the current page and writes its report …');
    for (const cancel of cancels) void cancel().catch(() => undefined);
  };
  try {
    runtime = await openRuntime({ log, worker: flags.worker });
    const client = clientFor(runtime.temporal);
    process.once('SIGINT', onSigint);
    const runId = newRunId();
    const several = sites.length > 1;
    const api = runtime.api;
    const outcomes = await Promise.all(sites.map((siteId) => cleanSite(client, { ...input, siteId, ...(api && { api }) }, `${CLEANUP_WORKFLOW_PREFIX}${runId}${several ? `-${siteId}` : ''}`, cancels, several ? `site ${siteId}: ` : '', log)));
    const reports = outcomes.map((o) => o.report).filter((r): r is CleanupReport => r !== undefined);
    if (flags.json) log.out(JSON.stringify(several ? reports : reports[0], null, 2));
    else for (const report of reports) log.out(formatCleanupReport(report).join('\n'));
    for (const o of outcomes) if (o.error) log.error(o.error);
    return outcomes.every((o) => o.ok) ? ExitCode.ok : ExitCode.runFailed;
  } catch (err) {
    // No Temporal server, or no embedded one could start (or may not, here): nothing was started.
    log.error(failureText(err).replace(/^the run failed/, 'the cleanup failed'));
    return isUsageError(err) ? ExitCode.usage : ExitCode.runFailed;
  } finally {
    process.off('SIGINT', onSigint);
    await runtime?.close();
  }
}

/** One site's cleanup, followed to its end: its report, and whether it closed all it meant to. */
async function cleanSite(client: Client, input: CleanupInput, workflowId: string, cancels: (() => Promise<void>)[], prefix: string, log: Logger): Promise<{ ok: boolean; report?: CleanupReport; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const handle = await startWorkflow(client, CLEANUP_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId, args: [input] });
    cancels.push(async () => {
      await handle.cancel();
    });
    log.info(`started ${input.dryRun ? 'a dry run of ' : ''}the session cleanup of site ${input.siteId} — workflow ${workflowId}`);
    let lastPages = 0;
    timer = setInterval(() => {
      handle.query(cleanupProgressQuery).then((p) => {
        if (p.pages === lastPages) return;
        lastPages = p.pages;
        log.info(`${prefix}pass ${p.pass}, ${p.pages} page(s): listed ${p.counts.listed}, matched ${p.counts.matched}, closed ${p.counts.closed}, failed ${p.counts.failed}`);
      }).catch(() => undefined);
    }, 2000);
    const report = await handle.result();
    if (report.stoppedBy === 'cancelled') log.warn(`${prefix}the cleanup was cancelled before the end of the list`);
    return { ok: report.counts.failed === 0 && report.stoppedBy !== 'cancelled', report };
  } catch (err) {
    const report = failedReport(err);
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    return { ok: false, report, error: prefix + (report && cause ? cause.message : failureText(err).replace(/^the run failed/, 'the cleanup failed')) };
  } finally {
    clearInterval(timer);
  }
}
