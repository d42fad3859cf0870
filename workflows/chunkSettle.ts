import type { RowResult } from '../src/domain/results';
import type { ChunkState } from './chunkState';
import { describeFailure } from './activityFailure';

/**
 * Settles a finished row: it joins the chunk's next batch (`settleRows`), which sends its verdict's feedback and, after
 * a conversation's last turn, closes its session, then records the row with what became of its feedback.
 *
 * The batch is retried by Temporal until it succeeds or runs past its deadline; calls refused (4xx) are final and
 * recorded as such, and past the deadline what is still undone is recorded with the last error (`ChunkState.settleRows`).
 */
export function settleRow(state: ChunkState, result: RowResult, verdict?: 'good' | 'bad', closeSessionId?: string): void {
  const feedback = verdict && result.requestId && result.sessionId ? { sessionId: result.sessionId, requestId: result.requestId, value: verdict } : undefined;
  state.settleLater({ result, ...(feedback && { feedback }), ...(closeSessionId && { closeSessionId }) });
}

/** Closes a session on its own, in the background: its last turn got no answer, or a re-ask left it for a fresh one. */
export function closeSession(state: ChunkState, sessionId: string): void {
  state.inBackground(state.settle.settle({ siteId: state.input.options.siteId, closeSessionId: sessionId }).then(
    (res) => state.closed(sessionId, res.close ?? { ok: true }),
    (err: unknown) => state.closed(sessionId, { ok: false, error: describeFailure(err).message }),
  ));
}
