import {
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  patched,
  startChild,
  setHandler,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import { TaskQueue } from '../src/temporal/taskQueues';
import { listing, localWork } from './activityProxies';
import { runChunk } from './chunk';
import { describeFailure } from './activityFailure';
import { notifyEnd } from './notifying';
import { cancelSignal, chunkProgressSignal, progressQuery } from './signals';
import { unsent, type ChunkFailure } from './stopEarly';
import { addCounts, countsOf, emptyCounts, type RunCarry, type RunInput, type RunProgress, type RunResult } from './types';

/** Chunks (child workflows) sending questions at once. */
const CHUNK_SLOTS = 2;

/**
 * Chunks open at once: sending, or past their last question and still waiting for answers, feedback and closes.
 * Where questions are answered faster than feedback goes out (the engine's ceiling), hand-overs would otherwise pile
 * up open chunks, each a workflow of about 2 MiB in the worker's cache (BENCHMARKS.md, "Worker memory"). At the
 * API's limit a chunk's tail (answers of up to 30 s, then its last settles) spans about three hand-overs.
 */
const MAX_OPEN_CHUNKS = 8;

/**
 * Chunks per run of this workflow before it continues as new. A chunk costs the parent ~21 history events
 * (start, completion, a progress signal per 20 rows, their workflow tasks), so 200 chunks stay near 4,200 events
 * and a 100,000-row backfill is five short histories instead of one of ~21,000 events.
 */
const DEFAULT_CHUNKS_PER_RUN = 200;


/**
 * The run of a dataset: prepare the plan, check access once, then one child workflow per page of the plan,
 * then reports. Shared by evaluation runs and backfills; `input.kind` says whether to grade.
 *
 * A chunk hands its place to the next one as soon as it has sent its last question (it says so in its progress
 * signal), not when it completes: its last answers, feedback and closes then overlap the next chunk's questions
 * instead of idling the rate-limited submit path. During that hand-over up to one chunk's window more
 * conversations are in flight than `concurrency`.
 */
export async function runDataset(given: RunInput): Promise<RunResult> {
  const { workflowId } = workflowInfo();
  // A Temporal Schedule starts runs with fixed arguments: the run id then comes from the workflow id the
  // schedule made unique, and the dataset's sha256 is pinned when the plan is built.
  const input: RunInput = { ...given, runId: given.runId || runIdFromWorkflowId(workflowId) };
  const carry = input.carry;
  const progress: RunProgress = {
    runId: input.runId, total: carry?.plan.rows ?? 0, counts: carry ? { ...emptyCounts(), ...carry.counts } : emptyCounts(), inFlight: 0,
    chunksDone: carry?.nextPage ?? 0, chunks: carry?.plan.pages ?? 0, startedAt: carry?.startedAt ?? Date.now(),
    updatedAt: Date.now(), throughput: 0, cancelling: false, phase: carry ? 'running' : 'preparing',
  };
  const inFlightByPage = new Map<number, number>();
  const drained = new Set<number>();
  const running = new Map<number, ChildWorkflowHandle<typeof runChunk>>();
  let cancelled = false;
  /** Page 0 said the run's first asks all got one refusal (stopEarly.ts). */
  let stoppedEarly: ChunkFailure | undefined;

  // Passed on to the running chunks every time: their first cancel drains, a second abandons what is in flight.
  const cancel = (stopped?: ChunkFailure): void => {
    cancelled = true;
    // A run stopped by its first asks' refusal is not being cancelled: it ends with that error.
    if (!stopped) progress.cancelling = true;
    for (const child of running.values()) {
      void CancellationScope.nonCancellable(() => (stopped ? child.signal(cancelSignal, stopped) : child.signal(cancelSignal))).catch(() => undefined);
    }
  };
  setHandler(progressQuery, () => withRates({ ...progress, workflows: [workflowId, ...[...running.keys()].map((page) => chunkWorkflowId(workflowId, page))] }));
  setHandler(chunkProgressSignal, ({ page, counts, inFlight, drained: isDrained, stopped }) => {
    addCounts(progress.counts, counts);
    // At once, not when page 0 ends: the other chunks stop asking too.
    if (stopped && !stoppedEarly) {
      stoppedEarly = stopped;
      cancel(stopped);
    }
    inFlightByPage.set(page, inFlight);
    if (isDrained) drained.add(page);
    progress.inFlight = [...inFlightByPage.values()].reduce((a, b) => a + b, 0);
    progress.updatedAt = Date.now();
  });
  setHandler(cancelSignal, () => cancel());
  CancellationScope.current().cancelRequested.catch(() => cancel());

  return CancellationScope.nonCancellable(async () => {
    const plan = carry?.plan ?? (await localWork.prepareRun({ input, workflowId }));
    progress.total = plan.rows;
    progress.chunks = plan.pages;
    // A run started without its API (a schedule, `run --no-worker` without SITECHAT_BASE_URL) asks the API of the
    // worker that prepared it, from here on and in its next histories.
    if (input.options.api === undefined && plan.api !== undefined) input.options = { ...input.options, api: plan.api };

    let fatal: ChunkFailure | undefined;
    if (!carry) {
      try {
        await listing(input.options.siteId, input.options.api).preflight({ siteId: input.options.siteId });
      } catch (err) {
        fatal = describeFailure(err);
      }
    }

    progress.phase = 'running';
    const slots = Math.max(1, Math.min(CHUNK_SLOTS, plan.pages));
    const window = Math.max(1, Math.ceil(input.options.concurrency / slots));
    let sessionsClosed = carry?.sessionsClosed ?? 0;
    let sessionsCloseFailed = carry?.sessionsCloseFailed ?? 0;
    let nextPage = carry?.nextPage ?? 0;
    const lastPageThisRun = Math.min(plan.pages, nextPage + (input.options.chunksPerRun ?? DEFAULT_CHUNKS_PER_RUN));
    const completions: Promise<void>[] = [];

    // Chunks being started: counted against the bound until `running` holds them.
    let starting = 0;
    // Returns the completion wrapped: an async function returning a bare promise would make the caller wait for it.
    const startPage = async (page: number): Promise<{ done: Promise<void> }> => {
      starting += 1;
      let child: ChildWorkflowHandle<typeof runChunk>;
      try {
        child = await startChild(runChunk, {
          workflowId: chunkWorkflowId(workflowId, page),
          taskQueue: TaskQueue.main,
          args: [{ kind: input.kind, runId: input.runId, parentWorkflowId: workflowId, page, window, options: input.options, resume: input.resume }],
        });
      } finally {
        starting -= 1;
      }
      running.set(page, child);
      progress.chunksOpen = running.size;
      const done = child.result().then(
        (res) => {
          if (res.unreported) addCounts(progress.counts, res.unreported);
          sessionsClosed += res.sessionsClosed;
          sessionsCloseFailed += res.sessionsCloseFailed;
          if (res.fatal) fatal ??= res.fatal;
        },
        (err: unknown) => {
          fatal ??= describeFailure(err);
        },
      ).finally(() => {
        running.delete(page);
        progress.chunksOpen = running.size;
        inFlightByPage.delete(page);
        progress.chunksDone += 1;
        if (fatal) cancel(fatal.systematic ? fatal : undefined);
      });
      completions.push(done);
      return { done };
    };
    // Runs started before the bound replay without it (a workflow task must issue the commands it did then).
    const bounded = patched('bounded-open-chunks');
    const lane = async (): Promise<void> => {
      while (nextPage < lastPageThisRun && !cancelled && !fatal) {
        if (bounded && running.size + starting >= MAX_OPEN_CHUNKS) {
          await condition(() => running.size + starting < MAX_OPEN_CHUNKS || cancelled || !!fatal);
          continue;
        }
        const page = nextPage++;
        const { done } = await startPage(page);
        await Promise.race([done, condition(() => drained.has(page))]);
      }
    };
    await Promise.all(Array.from({ length: slots }, lane));
    await Promise.all(completions);

    if (nextPage < plan.pages && !cancelled && !fatal) {
      const next: RunCarry = { plan, nextPage, counts: progress.counts, sessionsClosed, sessionsCloseFailed, startedAt: progress.startedAt };
      return continueAsNew<typeof runDataset>({ ...input, carry: next });
    }

    progress.phase = 'finishing';
    progress.inFlight = 0;
    // Page 0's refusal, should page 0 itself have ended on another fatal error first.
    fatal ??= stoppedEarly;
    if (nextPage < plan.pages) {
      const { reason, outcome, facts } = unsent(fatal);
      const skipped = await localWork.skipPages({ runId: input.runId, fromPage: nextPage, toPage: plan.pages, reason, outcome, facts, resume: input.resume });
      addCounts(progress.counts, skipped);
    }
    // `--confirm`: only with a baseline, and only a run that asked every row; runs without it issue no new command.
    if (input.kind === 'evaluation' && (input.options.confirm ?? 0) > 0 && input.options.baseline && nextPage >= plan.pages && !cancelled && !fatal &&
      patched('confirm-regressions')) {
      const confirmInput = { runId: input.runId, input: { ...input, carry: undefined } };
      // Runs started before it confirm every regressed row in one page, and replay so.
      if (patched('confirm-sequential')) {
        // A round at a time, until the rows not asked could no longer change the verdict (docs/reports.md).
        for (let page = plan.pages; !cancelled && !fatal; page++) {
          const round = await localWork.planConfirmationRound({ ...confirmInput, firstPage: plan.pages, page });
          if (!round) break;
          progress.phase = 'running';
          progress.total += round.questions;
          progress.chunks += 1;
          const { done } = await startPage(round.page);
          await done;
          progress.phase = 'finishing';
        }
      } else {
        const confirm = await localWork.planConfirmation({ ...confirmInput, page: plan.pages });
        if (confirm) {
          progress.phase = 'running';
          progress.total += confirm.questions;
          progress.chunks += 1;
          const { done } = await startPage(confirm.page);
          await done;
          progress.phase = 'finishing';
        }
      }
    }
    const result = await localWork.finalizeRun({
      runId: input.runId, input: { ...input, carry: undefined }, workflowId, sessionsClosed, sessionsCloseFailed, cancelled: cancelled && !fatal,
      ...(fatal && { stopped: fatal.message }),
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
  });
}

function withRates(p: RunProgress): RunProgress {
  const done = Object.values(p.counts).reduce((a, b) => a + b, 0);
  const elapsed = Math.max(1, p.updatedAt - p.startedAt);
  const throughput = (done / elapsed) * 1000;
  const left = p.total - done;
  return { ...p, throughput, etaMs: throughput > 0 && left > 0 ? (left / throughput) * 1000 : undefined };
}

function chunkWorkflowId(runWorkflowId: string, page: number): string {
  return `${runWorkflowId}/chunk-${page}`;
}

/** `sitechat-evaluation-nightly-2026-11-22T02:00:00Z` → `nightly-2026-11-22T020000Z` (safe as a folder name) */
export function runIdFromWorkflowId(workflowId: string): string {
  return workflowId.replace(/^sitechat-[a-z]+-/, '').replace(/:/g, '');
}
