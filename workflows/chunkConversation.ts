import { uuid4 } from '@temporalio/workflow';
import type { PlannedRow, PlannedUnit } from '../activities/types';
import { unansweredResult } from '../src/domain/rowResult';
import { closeSession, settleRow } from './chunkSettle';
import type { ChunkState } from './chunkState';
import { askTurn } from './chunkTurn';
import { ConversationSession } from './conversationSession';
import { unsent } from '../src/domain/stopEarly';

/**
 * One conversation: its turns in order, in one session. A turn that got no answer does not end the conversation:
 * the follow-up turns are still asked, in the same session. After a cancel (or a fatal error) the turns not yet
 * sent are recorded unsent. The last answered turn's feedback and the session's close go out together.
 */
export async function runConversation(state: ChunkState, unit: PlannedUnit): Promise<void> {
  const first = unit.rows[0];
  // A row's own session id (a continued conversation) wins; else one of ours, the same for every retry.
  const named = first?.prior?.sessionId ?? first?.session_id;
  const session = new ConversationSession(named ?? uuid4(), named === undefined);
  for (const [i, row] of unit.rows.entries()) {
    if (row.prior) {
      countPrior(state, session, row.prior);
      continue;
    }
    if (state.cancelled) {
      settleUnsent(state, row);
      continue;
    }
    const answered = await askTurn(state, row, session);
    if (!answered) continue;
    session.seen = true;
    settleRow(state, answered.result, answered.verdict, i === unit.rows.length - 1 ? session.claimClose(state) : undefined);
  }
  // The last turn was not answered (or not sent): close what the API has seen on its own.
  const leftOpen = session.claimClose(state);
  if (leftOpen) closeSession(state, leftOpen);
}

/** Answered by an earlier attempt of this run: counted, never sent again, its session continues. */
function countPrior(state: ChunkState, session: ConversationSession, prior: NonNullable<PlannedRow['prior']>): void {
  state.count(prior.outcome);
  session.id = prior.sessionId ?? session.id;
  session.seen ||= prior.sessionId !== undefined;
  session.ours &&= prior.sessionId === undefined;
}

/**
 * A turn not sent because the chunk is stopping: `skipped` after a cancel or the run's first asks' refusal, `error`
 * after a fatal error.
 */
function settleUnsent(state: ChunkState, row: PlannedRow): void {
  const { fatal } = state;
  const { outcome, reason, facts } = unsent(fatal);
  settleRow(state, unansweredResult(row, outcome, reason, new Date().toISOString(), facts));
}
