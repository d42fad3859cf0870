import { WorkflowFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { cancelSignal, progressQuery } from '../../workflows/signals';
import type { RunProgress, RunResult } from '../../workflows/types';
import type { Logger } from './logger';
import { askInterrupt } from './interruptPrompt';
import { ProgressView } from './progress';
import { summaryTable } from './summaryTable';

/** Exit codes of run-like commands (documented in the README). */
export const ExitCode = {
  ok: 0,
  gateFailed: 1,
  usage: 2,
  runFailed: 3,
} as const;

export interface FollowOptions {
  log: Logger;
  json: boolean;
  /** Poll interval of the progress query. @default 1000 */
  intervalMs?: number;
  /** Where live progress comes from. @default the run's progress query (a multi-site run adds up its sites') */
  progress?: () => Promise<RunProgress>;
}

/**
 * Shows a run's progress until it ends, then its summary; returns the exit code. Ctrl-C offers to cancel the run
 * (sessions are closed, reports written) or to detach from it (`sitechat watch <runId>` re-attaches).
 */
export async function followRun(client: Client, workflowId: string, options: FollowOptions): Promise<number> {
  const { log } = options;
  const handle = client.workflow.getHandle(workflowId);
  const view = new ProgressView(process.stderr);
  let detached = false;
  let interrupts = 0;
  let stopWaiting: () => void = () => undefined;
  const detachedPromise = new Promise<void>((resolve) => (stopWaiting = resolve));
  // Aborted when the run ends or is left, so an open Ctrl-C question goes away by itself.
  const runEnded = new AbortController();

  const leave = (): void => {
    log.warn('interrupted again: leaving; the run goes on (sitechat watch / sitechat cancel)');
    detached = true;
    stopWaiting();
  };
  const onSigint = (): void => {
    interrupts += 1;
    if (interrupts > 1) return leave();
    void askInterrupt(view, runEnded.signal).then(async (choice) => {
      interrupts = 0;
      if (choice === 'leave') leave();
      else if (choice === 'cancel') {
        log.info('cancelling: nothing new is asked; questions in flight are waited for, then sessions are closed and reports written (sitechat cancel again abandons them) …');
        await handle.signal(cancelSignal);
      } else if (choice === 'detach') {
        detached = true;
        stopWaiting();
      }
    }).catch((err: unknown) => log.error(String(err)));
  };
  process.on('SIGINT', onSigint);

  // One query at a time, each with a short deadline, so none is left retrying after the connection closes.
  let querying: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    querying = querying.then(() =>
      client.withDeadline(Date.now() + 2000, () => (options.progress ? options.progress() : handle.query(progressQuery))).then((p) => view.update(p), () => undefined));
  }, options.intervalMs ?? 1000);
  try {
    // Aborted on detach too, so the result's long poll does not retry on a connection closed under it.
    const outcome = client.withAbortSignal(runEnded.signal, () => handle.result() as Promise<RunResult>);
    outcome.catch(() => undefined);
    const result = await Promise.race([outcome, detachedPromise.then(() => undefined)]).finally(() => {
      runEnded.abort();
      view.close();
    });
    view.end();
    if (detached || !result) {
      log.info(`detached from ${workflowId}; follow it with: sitechat watch ${workflowId}`);
      return ExitCode.ok;
    }
    return report(result, options);
  } catch (err) {
    view.end();
    log.error(failureText(err));
    return ExitCode.runFailed;
  } finally {
    clearInterval(timer);
    await querying;
    process.off('SIGINT', onSigint);
  }
}

function report(result: RunResult, { log, json }: FollowOptions): number {
  if (json) log.out(JSON.stringify({ ...result.summary, reportDir: result.reportDir, reportFiles: result.reportFiles }, null, 2));
  else log.out(summaryTable(result.summary));
  log.info(`reports: ${result.reportFiles.map((f) => `${result.reportDir}/${f}`).join(', ')}`);
  if (result.outputFile) log.info(`answers: ${result.outputFile}`);
  return exitCodeFor(result, log);
}

/** 3 when the run was cancelled, 1 when its gate failed, else 0 (passed, no threshold set, or a backfill). */
export function exitCodeFor(result: Pick<RunResult, 'cancelled' | 'summary'>, log?: Logger): number {
  if (result.cancelled || result.summary.cancelled || result.summary.gate?.verdict === 'cancelled') {
    log?.warn('the run was cancelled; unsent rows are recorded as skipped');
    return ExitCode.runFailed;
  }
  return result.summary.gate?.verdict === 'failed' ? ExitCode.gateFailed : ExitCode.ok;
}

/** The innermost cause of a workflow failure: the API's reason, not Temporal's wrapping. */
export function failureText(err: unknown): string {
  let cause: unknown = err instanceof WorkflowFailedError ? err.cause : err;
  while (cause instanceof Error && cause.cause instanceof Error && !(cause instanceof ApplicationFailure && cause.type === 'RunAborted')) cause = cause.cause;
  const text = cause instanceof Error ? cause.message : String(cause);
  return `the run failed: ${text}`;
}
