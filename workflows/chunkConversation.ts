import { uuid4 } from '@temporalio/workflow';
import type { PlannedRow, PlannedUnit } from '../activities/types';
import { unansweredResult } from '../src/domain/rowResult';
import { closeSession, settleRow } from './chunkSettle';
import type { ChunkState } from './chunkState';
import { askTurn } from './chunkTurn';
import { unsent } from '../src/domain/stopEarly';

/**
 * A conversation's API session. Its id is chosen here (a UUID, spec §2: "chosen by the caller") unless the first row
 * names one or continues an earlier attempt's, so a question asked again after a lost response lands in the same
 * session and no session is left unclosed. It is closed once, and only if the API has seen it.
 */
export class ConversationSession {
  /** The API has seen this session: some turn of it was answered (now, or by an earlier attempt). */
  seen = false;

  /** `ours`: the id was chosen here, not named by the dataset or an earlier attempt. */
  constructor(public id: string, public ours: boolean) {}

  /** The session to close now, once: undefined when the API never saw it, closing is off, or it is closed already. */
  claimClose(state: ChunkState): string | undefined {
    if (!this.seen || !state.input.options.closeSessions || state.sessionsToClose.has(this.id)) return undefined;
    state.sessionsToClose.add(this.id);
    return this.id;
  }

  /**
   * Whether a turn the service failed is re-asked in a fresh session: only while no turn of the conversation was
   * answered (its first turn, normally), and only in a session of ours (a session the dataset names is kept).
   */
  renewable(): boolean {
    return this.ours && !this.seen;
  }

  /**
   * Moves the conversation to a fresh session of ours; the failed one (the API accepted a request in it) is closed,
   * once. `unsure`: the API may never have created it (a sync chat's 5xx names no request), so a 404 on closing it
   * is nothing left open.
   */
  renew(state: ChunkState, unsure: boolean): void {
    this.seen = true;
    if (unsure) state.unsureSessions.add(this.id);
    const failed = this.claimClose(state);
    if (failed) closeSession(state, failed);
    this.id = uuid4();
    this.seen = false;
  }
}

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
