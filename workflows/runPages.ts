import { condition, startChild, type ChildWorkflowHandle } from '@temporalio/workflow';
import { TaskQueue } from '../src/temporal/taskQueues';
import { runChunk } from './chunk';
import { chunkWorkflowId, type RunState } from './runState';

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

/** Chunks sending at once: one per lane. */
function lanes(state: RunState): number {
  return Math.max(1, Math.min(CHUNK_SLOTS, state.plan.pages));
}

/** Conversations in flight in each chunk: the run's concurrency shared by the chunks sending at once. */
function chunkWindow(state: RunState): number {
  return Math.max(1, Math.ceil(state.input.options.concurrency / lanes(state)));
}

/**
 * The plan's pages, one child workflow each, up to {@link DEFAULT_CHUNKS_PER_RUN} in this history. Two lanes each
 * start a chunk and take the next page as soon as that chunk has sent its last question (it says so in its progress
 * signal), not when it completes: its last answers, feedback and closes then overlap the next chunk's questions
 * instead of idling the rate-limited submit path. During that hand-over up to one chunk's window more conversations
 * are in flight than `concurrency`; at most {@link MAX_OPEN_CHUNKS} chunks are open at once. Returns when every chunk
 * started has ended.
 */
export async function runPages(state: RunState): Promise<void> {
  const { plan, input } = state;
  state.progress.phase = 'running';
  const lastPage = Math.min(plan.pages, state.nextPage + (input.options.chunksPerRun ?? DEFAULT_CHUNKS_PER_RUN));
  await Promise.all(Array.from({ length: lanes(state) }, () => lane(state, lastPage)));
  await Promise.all(state.completions);
}

async function lane(state: RunState, lastPage: number): Promise<void> {
  const room = (): boolean => state.running.size + state.starting < MAX_OPEN_CHUNKS;
  while (state.nextPage < lastPage && !state.stopping()) {
    if (!room()) {
      await condition(() => room() || state.stopping());
      continue;
    }
    const page = state.nextPage++;
    const { done } = await startChunk(state, page);
    await Promise.race([done, condition(() => state.hasDrained(page))]);
  }
}

/**
 * Starts the chunk of `page` (a page of the plan, or a confirmation round's). Returns its end (its result taken in)
 * wrapped: an async function returning a bare promise would make the caller wait for it.
 */
export async function startChunk(state: RunState, page: number): Promise<{ done: Promise<void> }> {
  const { input, workflowId } = state;
  state.starting += 1;
  let child: ChildWorkflowHandle<typeof runChunk>;
  try {
    child = await startChild(runChunk, {
      workflowId: chunkWorkflowId(workflowId, page),
      taskQueue: TaskQueue.main,
      args: [{ kind: input.kind, runId: input.runId, parentWorkflowId: workflowId, page, window: chunkWindow(state), options: input.options, resume: input.resume }],
    });
  } finally {
    state.starting -= 1;
  }
  state.chunkStarted(page, child);
  const done = child.result().then(
    (res) => state.chunkCompleted(res),
    (err: unknown) => state.chunkFailed(err),
  ).finally(() => state.chunkEnded(page));
  state.completions.push(done);
  return { done };
}
