import type { RowResult } from '../src/domain/results';
import type { ChunkState } from './chunkState';
import { describeFailure } from './activityFailure';

/**
 * Settles a finished row: sends its verdict's feedback and, after a conversation's last turn, closes its session,
 * then records the row with what became of its feedback. Under `settleBatches` the row joins the chunk's next batch
 * (`settleRows`: the batch's calls and records in one activity). Before it: one activity per row for both calls, in
 * the background, and a row with neither recorded at once.
 *
 * The settle activity is retried by Temporal until it succeeds, meets a non-retryable answer (returned as its
 * result), or runs past its deadline; what finally fails is recorded with the reason.
 */
export function settleRow(state: ChunkState, result: RowResult, verdict?: 'good' | 'bad', closeSessionId?: string): void {
  const feedback = verdict && result.requestId && result.sessionId ? { sessionId: result.sessionId, requestId: result.requestId, value: verdict } : undefined;
  if (state.settleBatches) return state.settleLater({ result, ...(feedback && { feedback }), ...(closeSessionId && { closeSessionId }) });
  if (!feedback && !closeSessionId) return state.record(result);
  state.inBackground(state.settle.settle({ siteId: state.input.options.siteId, feedback, closeSessionId }).then(
    (res) => {
      if (closeSessionId && res.closeAgain) closeSession(state, closeSessionId);
      else if (closeSessionId && res.close) state.closed(closeSessionId, res.close);
      if (!feedback || !res.feedback) return state.record(result);
      state.record(res.feedback.ok ? { ...result, feedback: feedback.value } : { ...result, feedback: 'failed', feedbackError: res.feedback.error });
    },
    (err: unknown) => {
      // Past the deadline: the last attempt's error names the call that failed (feedback is sent first).
      const { message } = describeFailure(err);
      const feedbackFailed = feedback !== undefined && !message.startsWith('close:');
      if (closeSessionId) state.closed(closeSessionId, { ok: false, error: feedbackFailed ? `not closed: the feedback before it kept failing (${message})` : message });
      if (!feedback) return state.record(result);
      state.record(feedbackFailed ? { ...result, feedback: 'failed', feedbackError: message } : { ...result, feedback: feedback.value });
    },
  ));
}

/** Closes a session on its own (its last turn got no answer, or the close failed after the feedback went out). */
export function closeSession(state: ChunkState, sessionId: string): void {
  state.inBackground(state.settle.settle({ siteId: state.input.options.siteId, closeSessionId: sessionId }).then(
    (res) => state.closed(sessionId, res.close ?? { ok: true }),
    (err: unknown) => state.closed(sessionId, { ok: false, error: describeFailure(err).message }),
  ));
}
