import {
  ApplicationFailure,
  CancellationScope,
  startChild,
  setHandler,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import { TaskQueue } from '../src/temporal/taskQueues';
import { listing, local } from './activities';
import { runChunk } from './chunk';
import { describeFailure } from './outcome';
import { cancelSignal, chunkProgressSignal, progressQuery } from './signals';
import { addCounts, countsOf, emptyCounts, type RunInput, type RunProgress, type RunResult } from './types';

/** Chunks (child workflows) in flight at once; two overlap so one chunk's tail does not idle the run. */
const CHUNK_SLOTS = 2;

/**
 * The run of a dataset: prepare the plan, check access once, then one child workflow per page of the plan,
 * then reports. Shared by evaluation runs and backfills; `input.kind` says whether to grade.
 */
export async function runDataset(given: RunInput): Promise<RunResult> {
  const { workflowId } = workflowInfo();
  // A Temporal Schedule starts runs with fixed arguments: the run id then comes from the workflow id the
  // schedule made unique, and the dataset's sha256 is pinned when the plan is built.
  const input: RunInput = { ...given, runId: given.runId || runIdFromWorkflowId(workflowId) };
  const progress: RunProgress = {
    runId: input.runId, total: 0, counts: emptyCounts(), inFlight: 0, chunksDone: 0, chunks: 0,
    startedAt: Date.now(), updatedAt: Date.now(), throughput: 0, cancelling: false, phase: 'preparing',
  };
  const inFlightByPage = new Map<number, number>();
  const running = new Map<number, ChildWorkflowHandle<typeof runChunk>>();
  let cancelled = false;

  setHandler(progressQuery, () => withRates(progress));
  setHandler(chunkProgressSignal, ({ page, counts, inFlight }) => {
    addCounts(progress.counts, counts);
    inFlightByPage.set(page, inFlight);
    progress.inFlight = [...inFlightByPage.values()].reduce((a, b) => a + b, 0);
    progress.updatedAt = Date.now();
  });
  // Passed on to the running chunks every time: their first cancel drains, a second abandons what is in flight.
  const cancel = (): void => {
    cancelled = true;
    progress.cancelling = true;
    for (const child of running.values()) {
      void CancellationScope.nonCancellable(() => child.signal(cancelSignal)).catch(() => undefined);
    }
  };
  setHandler(cancelSignal, cancel);
  CancellationScope.current().cancelRequested.catch(cancel);

  return CancellationScope.nonCancellable(async () => {
    const plan = await local.prepareRun({ input, workflowId });
    progress.total = plan.rows;
    progress.chunks = plan.pages;

    let fatal: { message: string; type: string } | undefined;
    try {
      await listing.preflight({ siteId: input.options.siteId });
    } catch (err) {
      fatal = describeFailure(err);
    }

    progress.phase = 'running';
    const slots = Math.max(1, Math.min(CHUNK_SLOTS, plan.pages));
    const window = Math.max(1, Math.ceil(input.options.concurrency / slots));
    let sessionsClosed = 0;
    let nextPage = 0;
    const lane = async (): Promise<void> => {
      while (nextPage < plan.pages && !cancelled && !fatal) {
        const page = nextPage++;
        const child = await startChild(runChunk, {
          workflowId: `${workflowId}/chunk-${page}`,
          taskQueue: TaskQueue.main,
          args: [{ kind: input.kind, runId: input.runId, parentWorkflowId: workflowId, page, window, options: input.options, resume: input.resume }],
        });
        running.set(page, child);
        try {
          const res = await child.result();
          sessionsClosed += res.sessionsClosed;
          if (res.fatal) fatal ??= res.fatal;
          if (fatal) cancel();
        } catch (err) {
          fatal ??= describeFailure(err);
          cancel();
        } finally {
          running.delete(page);
          inFlightByPage.delete(page);
          progress.chunksDone += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: slots }, lane));

    progress.phase = 'finishing';
    progress.inFlight = 0;
    if (nextPage < plan.pages) {
      const reason = fatal ? `not sent: the run stopped on ${fatal.message}` : 'run cancelled before this row was sent';
      const skipped = await local.skipPages({ runId: input.runId, fromPage: nextPage, toPage: plan.pages, reason, outcome: fatal ? 'error' : 'skipped', resume: input.resume });
      addCounts(progress.counts, skipped);
    }
    const result = await local.finalizeRun({ runId: input.runId, input, workflowId, sessionsClosed, cancelled: cancelled && !fatal });
    progress.counts = countsOf(result.summary);
    progress.phase = 'done';
    if (fatal) {
      throw ApplicationFailure.nonRetryable(`${fatal.message} (reports written to ${result.reportDir})`, 'RunAborted');
    }
    return result;
  });
}

function withRates(p: RunProgress): RunProgress {
  const done = Object.values(p.counts).reduce((a, b) => a + b, 0);
  const elapsed = Math.max(1, p.updatedAt - p.startedAt);
  const throughput = (done / elapsed) * 1000;
  const left = p.total - done;
  return { ...p, throughput, etaMs: throughput > 0 && left > 0 ? (left / throughput) * 1000 : undefined };
}

/** `sitechat-evaluation-nightly-2026-11-22T02:00:00Z` → `nightly-2026-11-22T020000Z` (safe as a folder name) */
export function runIdFromWorkflowId(workflowId: string): string {
  return workflowId.replace(/^sitechat-[a-z]+-/, '').replace(/:/g, '');
}
