import { ApplicationFailure } from '@temporalio/workflow';
import { localWork } from './activityProxies';
import { notifyEnd } from './notifying';
import type { RunState } from './runState';
import { unsent } from '../src/domain/stopEarly';
import { addCounts, countsOf, type RunResult } from '../src/domain/run';

/**
 * The run's end: pages never started are recorded unsent (`skipped`, or `error` after a fatal error), then the
 * reports, then the notifications. A run that stopped on an error fails with it (`RunAborted`), after its reports.
 */
export async function finalize(state: RunState): Promise<RunResult> {
  const { input, plan, progress, fatal } = state;
  if (state.nextPage < plan.pages) {
    const { reason, outcome, facts } = unsent(fatal);
    const skipped = await localWork.skipPages({ runId: input.runId, fromPage: state.nextPage, toPage: plan.pages, reason, outcome, facts, resume: input.resume });
    addCounts(progress.counts, skipped);
  }
  const result = await localWork.finalizeRun({
    runId: input.runId, input: { ...input, carry: undefined }, workflowId: state.workflowId, sessionsClosed: state.sessionsClosed,
    sessionsCloseFailed: state.sessionsCloseFailed, cancelled: state.cancelled && !fatal, ...(fatal && { stopped: fatal.message }),
  });
  progress.counts = countsOf(result.summary);
  const notifications = await notifyEnd(input.options.notify, { kind: 'run', runId: input.runId, reportDir: result.reportDir, baseline: input.options.baseline });
  progress.phase = 'done';
  if (fatal) {
    // The notifications ride along as details, for the CLI to show them with the failure; whether the run was
    // refused as invalid (its first asks all got 400): the CLI then exits 2, as for a usage error; and the cause in
    // the reports' words, for the CLI to lead with.
    const details = {
      ...(notifications && { notifications }), ...(fatal.systematic && fatal.status === 400 && { usage: true }),
      ...(result.summary.cause && { cause: result.summary.cause }),
    };
    throw ApplicationFailure.nonRetryable(`${fatal.message} (reports written to ${result.reportDir})`, 'RunAborted', ...(Object.keys(details).length > 0 ? [details] : []));
  }
  return notifications ? { ...result, notifications } : result;
}
