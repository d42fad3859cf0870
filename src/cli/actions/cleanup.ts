import { Client, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  CLEANUP_FAILED, CLEANUP_WORKFLOW_PREFIX, CLEANUP_WORKFLOW_TYPE, cleanupInputFromFlags, CleanupOptionError, cleanupProgressQuery,
  formatCleanupReport, type CleanupInput, type CleanupReport,
} from '../../cleanup';
import { TaskQueue } from '../../temporal/taskQueues';
import type { CleanupCommandFlags } from '../commands/cleanup';
import { ExitCode, failureText } from '../follow';
import { createLogger, type Logger } from '../logger';
import { defaultSiteId } from '../preflight';
import { openRuntime } from '../runtime';
import { newRunId } from './run';

export { defaultSiteId } from '../preflight';

/** The report carried by a failed cleanup (it writes its report before failing). */
function failedReport(err: unknown): CleanupReport | undefined {
  const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== CLEANUP_FAILED) return undefined;
  return cause.details?.[0] as CleanupReport | undefined;
}

function printReport(report: CleanupReport, json: boolean, log: Logger): void {
  if (json) log.out(JSON.stringify(report, null, 2));
  else log.out(formatCleanupReport(report).join('\n'));
}

/** `sitechat cleanup`: start `sessionCleanup`, show progress, print the report. Exit 0, 3 on any failure, 2 for bad flags. */
export async function cleanupAction(flags: CleanupCommandFlags, io: { log?: Logger } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  let input: CleanupInput;
  try {
    input = cleanupInputFromFlags(flags, { siteId: defaultSiteId() });
  } catch (err) {
    if (!(err instanceof CleanupOptionError)) throw err;
    log.error(err.message);
    return ExitCode.usage;
  }
  let runtime;
  const onSigint = (): void => void cancel?.();
  let cancel: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    runtime = await openRuntime({ log, worker: flags.worker });
    const client = new Client({ connection: runtime.temporal.client, namespace: runtime.temporal.namespace });
    const workflowId = `${CLEANUP_WORKFLOW_PREFIX}${newRunId()}`;
    const handle = await client.workflow.start(CLEANUP_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId, args: [input] });
    log.info(`started ${input.dryRun ? 'a dry run of ' : ''}the session cleanup of site ${input.siteId} — workflow ${workflowId}`);
    cancel = async () => {
      log.info('cancelling: the cleanup stops after the current page and writes its report …');
      await handle.cancel();
    };
    process.once('SIGINT', onSigint);
    let lastPages = 0;
    timer = setInterval(() => {
      handle.query(cleanupProgressQuery).then((p) => {
        if (p.pages === lastPages) return;
        lastPages = p.pages;
        log.info(`pass ${p.pass}, ${p.pages} page(s): listed ${p.counts.listed}, matched ${p.counts.matched}, closed ${p.counts.closed}, failed ${p.counts.failed}`);
      }).catch(() => undefined);
    }, 2000);
    const report = (await handle.result()) as CleanupReport;
    printReport(report, Boolean(flags.json), log);
    if (report.stoppedBy === 'cancelled') log.warn('the cleanup was cancelled before the end of the list');
    return report.counts.failed > 0 || report.stoppedBy === 'cancelled' ? ExitCode.runFailed : ExitCode.ok;
  } catch (err) {
    const report = failedReport(err);
    if (report) printReport(report, Boolean(flags.json), log);
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    log.error(report && cause ? cause.message : failureText(err).replace(/^the run failed/, 'the cleanup failed'));
    return ExitCode.runFailed;
  } finally {
    clearInterval(timer);
    process.off('SIGINT', onSigint);
    await runtime?.close();
  }
}
