import { WorkflowFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { PayloadCodecError } from '../../codec/errors';
import { cancelSignal, progressQuery } from '../../../workflows/signals';
import { outcomeLine, type NotifyOutcome } from '../../domain/notify';
import type { RunProgress, RunResult } from '../../domain/run';
import type { RunCause } from '../../domain/results';
import type { Logger } from '../logger';
import { askInterrupt } from './interruptPrompt';
import { isUnreachable, OutageNotice } from './outage';
import { ProgressView } from './progress';
import { StoreOutageNotice } from './storeOutage';
import { summaryTable } from './summaryTable';
import { errorSamplesFor } from './errorSamples';

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
  /** Wait between attempts to reach Temporal while it is unreachable. @default 2000 */
  reconnectMs?: number;
  /** How long one wait for the run's result lasts before the next begins (see `waitOnce`). @default 60000 */
  resultWaitMs?: number;
  /**
   * This process runs the Temporal server or the simulator the run depends on (embedded mode): they stop when it
   * exits, so detaching is refused and leaving cancels the run. @default false
   */
  embedded?: boolean;
}

/** Why Ctrl-C → detach is refused in embedded mode, and what to do instead. */
export const DETACH_REFUSED = 'cannot detach: this command runs the embedded Temporal server and simulator, which stop when it exits. ' +
  'Cancel (Ctrl-C, then c) or let the run finish; to leave runs running, use a persistent Temporal server ' +
  '(`npx sitechat server`, then TEMPORAL_ADDRESS as it prints) with `npx sitechat worker` processes';

/** Signals that interrupt a followed run. Ctrl-C asks what to do; the others (a service manager, a closed terminal) cancel gracefully. */
const INTERRUPTS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The same signal again within this long is the same interrupt: `npx`/`npm exec` forward a signal sent to the
 * process group (what CI runners and Ctrl-C send) to their child, which got it already.
 */
export const DUPLICATE_SIGNAL_MS = 500;

/** Per progress query: a query waits for a worker, and must not outlive the poll it belongs to. */
const QUERY_DEADLINE_MS = 2000;

/**
 * One wait for the run's result, then a new wait on a new signal (see `waitOnce`): a few of the server's history long
 * polls (~20 s each). Ended by aborting, not by a deadline: the server answers a long poll at once when the call's
 * deadline is near, so a deadline made the SDK poll the history many times a second at the end of every wait.
 */
const RESULT_WAIT_MS = 60_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Shows a run's progress until it ends, then its summary; returns the exit code. Ctrl-C offers to cancel the run
 * (sessions are closed, reports written) or to detach from it (`sitechat watch <runId>` re-attaches); SIGTERM and
 * SIGHUP cancel it. While Temporal is unreachable the run goes on: this says so, reconnects, and still exits with
 * the run's own verdict.
 */
export async function followRun(client: Client, workflowId: string, options: FollowOptions): Promise<number> {
  const { log } = options;
  const handle = client.workflow.getHandle(workflowId);
  const view = new ProgressView(process.stderr);
  const outage = new OutageNotice(log, workflowId);
  const storeOutage = new StoreOutageNotice(client, log);
  let detached = false;
  let interrupts = 0;
  let last: { signal: NodeJS.Signals; at: number } | undefined;
  let stopWaiting: () => void = () => undefined;
  const detachedPromise = new Promise<void>((resolve) => (stopWaiting = resolve));
  // Aborted when the run ends or is left, so an open Ctrl-C question goes away by itself.
  const runEnded = new AbortController();
  const cancelRun = (): Promise<void> => client.withDeadline(Date.now() + 10_000, () => handle.signal(cancelSignal));

  const leave = (): void => {
    if (options.embedded) {
      // The server and simulator stop with this process: a run left behind could not go on, so it is cancelled;
      // the next `sitechat watch --worker` (or run) starts the server again and finishes the cancel (reports, sessions).
      log.warn('interrupted again: cancelling the run and stopping the embedded Temporal server and simulator; `npx sitechat watch <run> --worker` finishes the cancel');
      void cancelRun().catch((err: unknown) => log.debug(`cancel: ${String(err)}`));
    } else {
      log.warn('interrupted again: leaving; the run goes on (npx sitechat watch / npx sitechat cancel)');
    }
    detached = true;
    stopWaiting();
  };
  const onInterrupt = (signal: NodeJS.Signals): void => {
    const now = Date.now();
    if (last?.signal === signal && now - last.at < DUPLICATE_SIGNAL_MS) return;
    last = { signal, at: now };
    interrupts += 1;
    if (interrupts > 1) return leave();
    const asked = signal === 'SIGINT' ? askInterrupt(view, runEnded.signal, undefined, { detach: !options.embedded }) : Promise.resolve('cancel' as const);
    if (signal !== 'SIGINT') log.warn(`${signal}: cancelling the run (${signal} again leaves at once)`);
    void asked.then(async (choice) => {
      // A second SIGTERM/SIGHUP leaves; after Ctrl-C the question is asked again.
      if (signal === 'SIGINT') interrupts = 0;
      if (choice === 'leave') leave();
      else if (choice === 'cancel') {
        log.info('cancelling: nothing new is asked; questions in flight are waited for, then sessions are closed and reports written (npx sitechat cancel again abandons them) …');
        await cancelRun();
      } else if (choice === 'detach' && options.embedded) {
        log.warn(DETACH_REFUSED);
      } else if (choice === 'detach') {
        detached = true;
        stopWaiting();
      }
    }).catch((err: unknown) => log.error(String(err)));
  };
  for (const signal of INTERRUPTS) process.on(signal, onInterrupt);

  // One query in flight at most, each with a deadline: while Temporal is down, ticks are skipped, not queued.
  let querying: Promise<void> | undefined;
  let unreadable: PayloadCodecError | undefined;
  const timer = setInterval(() => {
    querying ??= client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => (options.progress ? options.progress() : handle.query(progressQuery)))
      .then((p) => {
        outage.back();
        view.update(storeOutage.mark(p));
      }, (err: unknown) => {
        if (isUnreachable(err)) outage.lost(err);
        // Progress this process cannot decode does not become readable by waiting: its payload keys are missing or wrong.
        else if (err instanceof PayloadCodecError) {
          unreadable = err;
          stopWaiting();
        }
      })
      .finally(() => (querying = undefined));
  }, options.intervalMs ?? 1000);

  /**
   * One wait for the result, of at most {@link RESULT_WAIT_MS}, on a signal of its own that the end of the follow
   * aborts (on detach too, so the result's long poll does not retry on a connection closed under it). The SDK adds an
   * abort listener to the signal for every call and never removes it, and the result is long-polled: on one signal
   * for the whole run, a run of a few minutes printed a MaxListenersExceededWarning (and kept every listener).
   */
  const waitOnce = async (): Promise<RunResult | undefined> => {
    const attempt = new AbortController();
    const end = (): void => attempt.abort();
    runEnded.signal.addEventListener('abort', end, { once: true });
    const timer = setTimeout(end, options.resultWaitMs ?? RESULT_WAIT_MS);
    try {
      return await client.withAbortSignal(attempt.signal, () => handle.result() as Promise<RunResult>);
    } catch (err) {
      // The wait's own time ran out (not the follow's end): the next wait goes on.
      if (attempt.signal.aborted && !runEnded.signal.aborted) return undefined;
      throw err;
    } finally {
      clearTimeout(timer);
      runEnded.signal.removeEventListener('abort', end);
    }
  };

  /** The run's result, waited for across Temporal outages. */
  const waitForResult = async (): Promise<RunResult> => {
    for (;;) {
      try {
        const result = await waitOnce();
        outage.back();
        if (result) return result;
      } catch (err) {
        if (runEnded.signal.aborted || !isUnreachable(err)) throw err;
        outage.lost(err);
        await sleep(options.reconnectMs ?? 2000, runEnded.signal);
      }
    }
  };
  try {
    const outcome = waitForResult();
    outcome.catch(() => undefined);
    const result = await Promise.race([outcome, detachedPromise.then(() => undefined)]).finally(() => {
      runEnded.abort();
      view.close();
    });
    view.end();
    if (unreadable) {
      log.error(`${unreadable.message}; the run goes on without this process: follow it with the keys set (npx sitechat watch ${workflowId})`);
      return ExitCode.runFailed;
    }
    if (detached || !result) {
      if (!options.embedded) log.info(`detached from ${workflowId}; follow it with: npx sitechat watch ${workflowId}`);
      return options.embedded ? ExitCode.runFailed : ExitCode.ok;
    }
    return await report(result, options);
  } catch (err) {
    view.end();
    const aborted = abortedDetails(err);
    // The cause first, in the reports' words; the API's full message after it.
    if (aborted?.cause) log.error(`the run failed: ${aborted.cause.text}\n  ${failureText(err).replace(/^the run failed: /, '')}`);
    else log.error(failureText(err));
    showNotifications(aborted?.notifications, log);
    // Its first questions were all refused as invalid (400): the request as built from the flags and the dataset.
    return aborted?.usage === true ? ExitCode.usage : ExitCode.runFailed;
  } finally {
    clearInterval(timer);
    await querying;
    await storeOutage.settle();
    for (const signal of INTERRUPTS) process.off(signal, onInterrupt);
  }
}

async function report(result: RunResult, { log, json }: FollowOptions): Promise<number> {
  if (json) log.out(JSON.stringify({ ...result.summary, reportDir: result.reportDir, reportFiles: result.reportFiles, ...(result.notifications && { notifications: result.notifications }) }, null, 2));
  else log.out(summaryTable(result.summary, await errorSamplesFor(result.summary)));
  log.info(`reports: ${result.reportFiles.map((f) => `${result.reportDir}/${f}`).join(', ')}`);
  if (result.outputFile) log.info(`answers: ${result.outputFile}`);
  showNotifications(result.notifications, log);
  return exitCodeFor(result, log);
}

/** Shown, never counted: a failed notification does not change the verdict or the exit code. */
function showNotifications(outcomes: readonly NotifyOutcome[] | undefined, log: Logger): void {
  for (const o of outcomes ?? []) {
    if (o.status === 'failed') log.warn(`notification ${outcomeLine(o)}`);
    else log.info(`notification ${outcomeLine(o)}`);
  }
}

/**
 * What a run that ended on a fatal error says besides its message (the RunAborted failure's details): the
 * notifications it sent, and whether its first questions were all refused as invalid.
 */
function abortedDetails(err: unknown): { notifications?: NotifyOutcome[]; usage?: boolean; cause?: RunCause } | undefined {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ApplicationFailure && cause.type === 'RunAborted') {
      const details = cause.details?.[0] as { notifications?: unknown; usage?: unknown; cause?: Partial<RunCause> } | undefined;
      return {
        ...(Array.isArray(details?.notifications) && { notifications: details.notifications as NotifyOutcome[] }), usage: details?.usage === true,
        ...(typeof details?.cause?.text === 'string' && { cause: details.cause as RunCause }),
      };
    }
  }
  return undefined;
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
