import { CancellationScope, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import { listing, localWork } from './activityProxies';
import { describeFailure } from './activityFailure';
import { confirmRegressions } from './runConfirm';
import { finalize } from './runFinalize';
import { runPages } from './runPages';
import { RunState } from './runState';
import { cancelSignal, chunkProgressSignal, progressQuery } from './signals';
import type { RunInput, RunResult } from '../src/domain/run';

/**
 * The run of a dataset, shared by evaluation runs and backfills (`input.kind` says whether to grade). Its steps share
 * one {@link RunState} (runState.ts):
 * - `prepare` (here): the plan, and one check of the site's access;
 * - `runPages` (runPages.ts): one child workflow (`runChunk`) per page of the plan, two sending at once; a run of
 *   many pages continues as new every 200 chunks;
 * - `confirmRegressions` (runConfirm.ts): with `--confirm` and a baseline, the regressed rows asked again;
 * - `finalize` (runFinalize.ts): unsent pages recorded, reports, notifications.
 * A cancel (the signal, or the workflow's cancellation) stops starting chunks and drains the open ones; the run still
 * finalizes, so its body never inherits cancellation.
 */
export async function runDataset(given: RunInput): Promise<RunResult> {
  const { workflowId } = workflowInfo();
  // A Temporal Schedule starts runs with fixed arguments: the run id then comes from the workflow id the
  // schedule made unique, and the dataset's sha256 is pinned when the plan is built.
  const state = new RunState({ ...given, runId: given.runId || runIdFromWorkflowId(workflowId) }, workflowId);
  setHandler(progressQuery, () => state.snapshot());
  setHandler(chunkProgressSignal, (progress) => state.chunkProgress(progress));
  setHandler(cancelSignal, () => state.cancel());
  CancellationScope.current().cancelRequested.catch(() => state.cancel());

  return CancellationScope.nonCancellable(async () => {
    await prepare(state);
    await runPages(state);
    if (state.continuesAsNew()) return continueAsNew<typeof runDataset>(state.carried());
    state.finishing();
    await confirmRegressions(state);
    return finalize(state);
  });
}

/** Nightly answer-quality regression run: dataset → answers → grades → feedback → sessions closed → report. */
export async function evaluationRun(input: RunInput): Promise<RunResult> {
  return runDataset({ ...input, kind: 'evaluation' });
}

/** Bulk backfill: every question sent, every answer recorded (per email / session); no grading, no feedback. */
export async function backfillRun(input: RunInput): Promise<RunResult> {
  return runDataset({ ...input, kind: 'backfill', options: { ...input.options, feedback: 'none' } });
}

/** The plan (carried by a run that continued as new), then, on the run's first history, one check of the site's access. */
async function prepare(state: RunState): Promise<void> {
  const { input, workflowId } = state;
  state.planned(input.carry?.plan ?? (await localWork.prepareRun({ input, workflowId })));
  if (input.carry) return;
  const { siteId, api } = state.input.options;
  try {
    await listing(siteId, api).preflight({ siteId });
  } catch (err) {
    state.fatal = describeFailure(err);
  }
}

/** `sitechat-evaluation-nightly-2026-11-22T02:00:00Z` → `nightly-2026-11-22T020000Z` (safe as a folder name) */
export function runIdFromWorkflowId(workflowId: string): string {
  return workflowId.replace(/^sitechat-[a-z]+-/, '').replace(/:/g, '');
}
