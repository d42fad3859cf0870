import { CancellationScope, setHandler } from '@temporalio/workflow';
import type { PlannedUnit } from '../activities/types';
import { local, localWork } from './activityProxies';
import { runConversation } from './chunkConversation';
import { ChunkState } from './chunkState';
import { cancelSignal } from './signals';
import type { ChunkInput, ChunkResult } from '../src/domain/run';

/**
 * One page of the work plan: its conversations run concurrently up to `window`, the turns of each in order in
 * one API session. A child workflow per page keeps every history bounded, whatever the dataset's size.
 *
 * The steps, each in its own file, share one {@link ChunkState}:
 * - `runConversation` (chunkConversation.ts): a conversation's turns in its session, the follow-up turns after one
 *   that got no answer, and the session's close;
 * - `askTurn` (chunkTurn.ts): ask one question, and settle it as `error`/`skipped` when it got no answer;
 * - `gradeTurn` (chunkGrade.ts): grade an answered row;
 * - `settleRow` / `closeSession` (chunkSettle.ts): feedback, closes and the record, in batches (`settleRows`);
 * - the state's settler and `report`: progress signalled to the run after each batch, the rest with the result.
 */
export async function runChunk(input: ChunkInput): Promise<ChunkResult> {
  const state = new ChunkState(input);
  // A first cancel asks nothing new and waits for the questions in flight; a second abandons them. One that says the
  // run's first asks were refused (stopEarly.ts) abandons them at once, and gives the unsent rows that reason.
  setHandler(cancelSignal, (stopped) => {
    if (!stopped) return state.stop();
    state.fatal ??= stopped;
    state.abandonInFlight();
  });
  CancellationScope.current().cancelRequested.catch(() => state.stop());

  // Cleanup must run even when the run is cancelled, so the body never inherits cancellation.
  return CancellationScope.nonCancellable(async () => {
    const units = await localWork.readPage({ runId: input.runId, page: input.page, resume: input.resume });
    await runConversations(state, units);
    // Every conversation has ended; wait for their closes, then the last batches. Rows counted since the last progress
    // signal (a resumed run's earlier answers among them) go to the run with the result.
    while (state.background.size > 0) await Promise.all([...state.background]);
    await state.settler.drain();
    if (state.closeFailures.length > 0) await local.recordSessionFailures({ runId: input.runId, failures: state.closeFailures });
    return state.result();
  });
}

/**
 * Up to `window` lanes, each taking the next conversation when its last one ends. Not async: the chunk awaits
 * `Promise.all`'s own promise, so its wrap-up starts in the step the last conversation ends in, not one later.
 */
function runConversations(state: ChunkState, units: PlannedUnit[]): Promise<void[]> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < units.length) {
      const unit = units[next++] as PlannedUnit;
      // The last conversation has started: the run may start the next chunk.
      if (next === units.length) state.lastStarted();
      await runConversation(state, unit);
    }
  };
  return Promise.all(Array.from({ length: Math.max(1, Math.min(state.input.window, units.length)) }, lane));
}
