import { isCancellation, sleep } from '@temporalio/workflow';
import type { AskResult } from '../activities/types';
import { DEFAULT_REASK_FAILED, isTransientFailure, reaskDelayMs } from '../src/api/failureRules';
import type { ReaskedRequest } from '../src/domain/results';
import type { ConversationSession } from './conversationSession';
import type { ChunkState } from './chunkState';

/** How much of the service's `error` a row keeps per re-asked request. */
const ERROR_KEPT = 200;

/**
 * The failed request to re-ask, or undefined when the answer is to be settled as it is: it was not failed by the
 * service, its `error` is request-level (`isTransientFailure`), the row has had its re-asks, or the chunk is stopping.
 * A re-ask after the service failed a request (`--reask-failed`, docs/reports.md "Re-asked after the service failed")
 * is a decision of the workflow, not a retry of the ask activity: one ask attempt stays one submit (the task queue's
 * rate limit counts attempts), and the wait between them is a timer.
 */
export function reaskable(state: ChunkState, answer: AskResult, reasks: number, sessionId: string): ReaskedRequest | undefined {
  if (answer.status !== 'failed' || answer.serviceError === undefined || !isTransientFailure(answer.serviceError)) return undefined;
  if (state.cancelled || reasks >= (state.input.options.reaskFailed ?? DEFAULT_REASK_FAILED)) return undefined;
  const error = (answer.serviceError || answer.error || 'failed without an error string').slice(0, ERROR_KEPT);
  return { ...(answer.requestId && { requestId: answer.requestId }), sessionId: answer.sessionId ?? sessionId, error };
}

/**
 * Waits out the backoff before re-asking `failed`, then takes it down in `reasked` and, for a turn asked before any of
 * its conversation was answered, moves the conversation to a fresh session. False when the chunk began to stop
 * meanwhile: nothing new is asked after a cancel, so the row keeps the failure it has. The wait runs in an ask's scope,
 * so a second cancel (or a fatal error elsewhere) ends it like a question in flight.
 */
export async function waitToReask(state: ChunkState, rowId: string, session: ConversationSession, failed: ReaskedRequest, reasked: ReaskedRequest[]): Promise<boolean> {
  const scope = state.openAsk(rowId);
  try {
    await scope.run(() => sleep(reaskDelayMs(reasked.length + 1)));
  } catch (err) {
    if (isCancellation(err)) return false;
    throw err;
  } finally {
    state.closeAsk(scope);
  }
  if (state.cancelled) return false;
  reasked.push(failed);
  if (session.renewable()) session.renew(state, failed.requestId === undefined);
  return true;
}
