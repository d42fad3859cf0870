import { uuid4 } from '@temporalio/workflow';
import { closeSession } from './chunkSettle';
import type { ChunkState } from './chunkState';

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
