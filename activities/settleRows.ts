import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { Context } from '@temporalio/activity';
import { countRows } from './metrics';
import type { RowResult, SettleMark } from '../src/domain/results';
import type { ActivityDeps } from './deps';
import { feedbackRefusal, finalOrThrow } from './settleAndRecord';
import { withStoreRetry } from './storeOutage';
import type { SettleItem, SettleRowsInput, SettleRowsResult } from './types';

/**
 * `settleRows`: a batch of finished rows — each row's feedback and, after a conversation's last turn, its session's
 * close, then the rows into the results store — in one activity instead of a settle per row and a record per batch.
 *
 * Idempotent per row through the store: what each row's calls did is marked there as soon as they end
 * (`recordSettled`), and a retry (a 429 or 5xx that failed the attempt, a worker that died) reads the marks and
 * sends only what is not marked. Calls go through the host's pacer one at a time per path, as a settle per row did,
 * so a batch spends the same per-path budget; the rows of a batch run side by side so their feedback and closes
 * overlap. A retryable error stops new calls, lets the calls in flight end and be marked, and fails the attempt for
 * Temporal's retry policy (a 429's Retry-After wins). A refusal (4xx) is final: marked and recorded, not retried.
 *
 * `gaveUp`: the batch ran past its deadline; no call is made, the rows are recorded with what the marks say and the
 * rest as failed with that reason (the workflow calls this on the main queue).
 */
export function settleRowsActivity(deps: ActivityDeps) {
  return async function settleRows(input: SettleRowsInput): Promise<SettleRowsResult> {
    const ctx = Context.current();
    // The batch's calls share the activity's signal, and each holds an abort listener on it while it waits for its
    // turn or is out, a response's until its body is closed: up to two per row and one per path waiting, more than
    // the 10 after which Node warns of a leak (10 rows' feedback and closes at the API's 5 per path did it).
    setMaxListeners(Math.max(defaultMaxListeners, 2 * input.items.length + 2), ctx.cancellationSignal);
    const stored = <T>(op: () => Promise<T>): Promise<T> => withStoreRetry(op, deps.storeOutageLimitMs, (wait) => ctx.heartbeat(wait));
    const withCalls = input.items.filter((item) => item.feedback || item.closeSessionId).map(rowIdOf);
    // A first attempt has sent nothing: no lookup. A retry, or the give-up, reads what earlier attempts did.
    const marks = withCalls.length > 0 && (ctx.info.attempt > 1 || input.gaveUp !== undefined)
      ? await stored(() => deps.store.getSettled(input.runId, withCalls))
      : new Map<string, SettleMark>();
    const writer = new MarkWriter((batch) => stored(() => deps.store.recordSettled(input.runId, batch)));

    let failure: unknown;
    // Each session's feedback calls in this batch, so its close goes after all of them (a closed session is archived).
    const feedbackOf = new Map<string, Promise<boolean>[]>();
    const settleOne = (item: SettleItem): Promise<void> => {
      const mark: SettleMark = { ...(marks.get(rowIdOf(item)) ?? { rowId: rowIdOf(item) }) };
      let changed = false;
      const call = async (which: 'feedback' | 'close', fn: () => Promise<unknown>, explain?: Parameters<typeof finalOrThrow>[3]): Promise<boolean> => {
        if (failure !== undefined) return false;
        try {
          mark[which] = await finalOrThrow(which, input.siteId, fn, explain);
          changed = true;
          return true;
        } catch (err) {
          failure ??= err;
          return false;
        }
      };
      const { feedback, closeSessionId } = item;
      // Started in the items' order, so the pacer lets them go in that order.
      const body = feedback && { session_id: feedback.sessionId, request_id: feedback.requestId, feedback: feedback.value };
      const fbDone = !body || mark.feedback !== undefined ? Promise.resolve(true) : call('feedback', () => deps.limiter.run(`POST /m2m/sites/${input.siteId}/chat/feedback`, () =>
        deps.api.feedback.submit(input.siteId, body, { signal: ctx.cancellationSignal }), ctx.cancellationSignal), feedbackRefusal(body));
      if (feedback) feedbackOf.set(feedback.sessionId, [...(feedbackOf.get(feedback.sessionId) ?? []), fbDone]);
      return (async () => {
        // The close follows the feedback of its row, as in a settle per row, and of the session's other turns here.
        if (await fbDone && closeSessionId && mark.close === undefined && (await Promise.all(feedbackOf.get(closeSessionId) ?? [])).every(Boolean)) {
          await call('close', () => deps.limiter.run(`POST /m2m/sites/${input.siteId}/chat/session/close`, () =>
            deps.api.chat.closeSession(input.siteId, closeSessionId, { signal: ctx.cancellationSignal }), ctx.cancellationSignal));
        }
        if (changed) writer.add(mark);
        marks.set(mark.rowId, mark);
      })();
    };

    // A batch that waits long for its site's window says it is alive (heartbeats are billed: none for a quick one).
    const alive = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
    try {
      if (input.gaveUp === undefined) await Promise.all(input.items.map(settleOne));
      await writer.flush();
    } finally {
      clearInterval(alive);
    }
    if (failure !== undefined) throw failure;

    const outcomes = input.items.map((item) => outcomeOf(item, marks.get(rowIdOf(item)), input.gaveUp));
    const rows = input.items.map((item, i) => recorded(item, outcomes[i] as ItemOutcome));
    await deps.store.append(input.runId, await deps.planMetadata.attach(input.runId, input.page, rows));
    await countRows(deps.store, input.runId, rows);
    return { items: outcomes };
  };
}

type ItemOutcome = SettleRowsResult['items'][number];

/** Half the batch's 20 s heartbeat timeout (workflows/activityProxies.ts `settlingBatches`). */
const HEARTBEAT_EVERY_MS = 10_000;

function rowIdOf(item: SettleItem): string {
  return item.result.id;
}

/** What became of an item's calls, from its mark; after a give-up, what is not marked failed with that reason. */
function outcomeOf(item: SettleItem, mark: SettleMark | undefined, gaveUp: string | undefined): ItemOutcome {
  const out: ItemOutcome = {};
  const reason = gaveUp ?? 'not settled';
  if (item.feedback) out.feedback = mark?.feedback ?? { ok: false, error: reason };
  if (item.closeSessionId) {
    const feedbackFailed = item.feedback !== undefined && mark?.feedback === undefined;
    out.close = mark?.close ?? { ok: false, error: feedbackFailed ? `not closed: the feedback before it kept failing (${reason})` : reason };
  }
  return out;
}

/** The row as recorded: with its feedback's value, or `failed` and why. */
function recorded(item: SettleItem, outcome: ItemOutcome): RowResult {
  const { result } = item;
  if (!item.feedback || !outcome.feedback) return result;
  return outcome.feedback.ok ? { ...result, feedback: item.feedback.value } : { ...result, feedback: 'failed', feedbackError: outcome.feedback.error };
}

/**
 * Writes marks as rows finish, one store write at a time: marks that finish while a write is under way go together
 * in the next one (at the engine's ceiling a whole batch finishes at once; at the API's limit one row at a time).
 */
class MarkWriter {
  private pending: SettleMark[] = [];
  private running: Promise<void> | undefined;
  private error: unknown;

  constructor(private readonly write: (marks: SettleMark[]) => Promise<void>) {}

  add(mark: SettleMark): void {
    this.pending.push(mark);
    this.running ??= this.loop();
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (this.error !== undefined) throw this.error;
  }

  private async loop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        await this.write(batch);
      }
    } catch (err) {
      this.error ??= err;
    } finally {
      this.running = undefined;
    }
  }
}
