import { CancellationScope, getExternalWorkflowHandle, patched, type ExternalWorkflowHandle } from '@temporalio/workflow';
import type { RunActivities } from '../activities';
import type { CallOutcome, SettleItem, SettleRowsInput, SettleRowsResult } from '../activities/types';
import type { Outcome, RowResult, SessionCloseFailure } from '../src/domain/results';
import { asking, local, settling, settlingBatches } from './activityProxies';
import { describeFailure } from './activityFailure';
import { Batcher } from './batcher';
import { chunkProgressSignal } from './signals';
import { FirstAsks, type AskFailure, type ChunkFailure } from '../src/domain/stopEarly';
import { emptyCounts, type ChunkInput, type ChunkResult, type OutcomeCounts } from '../src/domain/run';

/**
 * Rows per record activity. Recording is local (no API path), so a batch costs one activity instead of ten; 10 keeps
 * the results store at most a few seconds behind the answers.
 */
const BATCH = 10;
/** Finished rows between two progress signals to the run (each costs the run's history ~4 events). */
const REPORT_EVERY = 20;
/** Once the last question is sent, batches shrink so the chunk's tail finishes soon after its last answer. */
const TAIL_BATCH = 3;
/** From `patched('short-tail')` on, the longest a finished row waits for its batch to fill (see `shortTail`). */
const SHORT_TAIL_HOLD_MS = 1000;
/** From `patched('short-tail')` on, the rows that go at once while the chunk has no batch in flight (see `shortTail`). */
const SHORT_TAIL_IDLE_BATCH = 2;

export type { ChunkFailure } from '../src/domain/stopEarly';

/**
 * Everything a chunk's steps share: counts, what is in flight, whether it is stopping and why, the sessions it
 * closed, and the side effects still running. The steps (chunkTurn, chunkGrade, chunkSettle, chunkConversation) read
 * and change it only through this object, so what a step touches is visible in its signature.
 *
 * Nothing here issues a command on construction: the activity proxies and the parent's handle are plain objects.
 */
export class ChunkState {
  readonly counts: OutcomeCounts = emptyCounts();
  /** Conversations whose question is out and not yet answered. */
  inFlight = 0;
  /** Nothing new is asked (a cancel, or a fatal error). */
  cancelled = false;
  /** The error that stopped the chunk, if one did: one no row can recover from, or the run's first asks' refusal. */
  fatal: ChunkFailure | undefined;
  /**
   * The run's first asks, watched for a systematic refusal (stopEarly.ts): on page 0, from
   * `patched('stop-early-systematic')` on. Histories from before it ask every row whatever the first ones got.
   */
  private readonly firstAsks: FirstAsks | undefined;
  sessionsClosed = 0;
  readonly closeFailures: SessionCloseFailure[] = [];
  /** Sessions already given to a settle to close: each is closed once. */
  readonly sessionsToClose = new Set<string>();
  /**
   * Failed sessions left for a fresh one that the API may never have created (a sync chat's 5xx named no request):
   * a 404 on closing one of them leaves nothing open, so it is neither closed nor a failure.
   */
  readonly unsureSessions = new Set<string>();
  /** Feedback and closes still running; the chunk waits for all of them before it ends. */
  readonly background = new Set<Promise<void>>();
  /** Finished rows, recorded in batches (histories from before `settleBatches`; their settles go one per row). */
  readonly recorder: Batcher<RowResult>;
  /**
   * Finished rows settled and recorded in batches: each batch's feedback, closes and records in one `settleRows`
   * activity (from `patched('settle-batches')` on).
   */
  readonly settler: Batcher<SettleItem>;
  /**
   * Whether finished rows go to `settler`. A settle per row cost an activity (3 history events, 1 billable action)
   * per answered row, and its completion woke the chunk on its own; a batch costs one for up to {@link BATCH} rows.
   * Histories without the marker settle per row and record in batches of their own, as they did.
   */
  readonly settleBatches: boolean;
  /**
   * From `patched('settle-full-batches')` on, batches shrink to {@link TAIL_BATCH} only once fewer than {@link BATCH}
   * asked rows are still to be settled (the rows still to come could not fill a batch), not as soon as the last
   * conversation has started, and the tail's batch goes at once when fewer than {@link TAIL_BATCH} are. Before it,
   * a chunk whose conversations all start at once (a window as large as the page, as at the engine ceiling) settled
   * in batches of 3 or fewer throughout (BENCHMARKS.md, "The engine ceiling: full settle batches, a shorter store
   * path per ask").
   */
  private readonly fullBatchesUntilTail: boolean;
  /**
   * From `patched('short-tail')` on: a chunk's first finished row is settled at once; after it a batch goes as soon as
   * the chunk has none in flight and holds {@link SHORT_TAIL_IDLE_BATCH} rows, or once a row has waited
   * {@link SHORT_TAIL_HOLD_MS}, or when it is full (rows that finish faster than a batch takes, as at the engine
   * ceiling, still make batches of {@link BATCH}); and the rows counted since the last progress signal go to the run
   * with the chunk's result instead of in a signal of their own before it.
   *
   * At the API's pace (5 requests/s per path, spec §8) the feedback and close paths carry as many calls as the submit
   * path, with no time to spare: a second in which a path had room while rows waited for a fuller batch is never made
   * up, and a 150-row run with batches of 10 ended 2–2.5 s after its last answer. Settling a row whenever the chunk has
   * no batch in flight ended it 0.0–0.2 s after, at 0.5–0.7 batches per row (billable actions over the 1.6 per row
   * budget); waiting for a second row then keeps about that tail at 0.35–0.45. BENCHMARKS.md, "The tail".
   */
  readonly shortTail: boolean;
  /**
   * Rows asked and not yet settled. Unlike `inFlight`, a row stays here until its settle is queued: answers that
   * arrive together are all out of flight before the first of them is settled, so `inFlight` alone made every one of
   * them look like the chunk's last (and each went in a batch of its own).
   */
  private readonly unsettled = new Set<string>();
  /** The ask activity (submit + poll), with this run's answer timeout. */
  readonly ask: RunActivities;
  /** The settle activity (feedback and close) on the feedback queue. */
  readonly settle: RunActivities;
  /** The batch settle (`settleRows`) on the feedback queue. */
  private readonly settleBatch: RunActivities;

  /** The chunk's last conversation has started. */
  private lastHasStarted = false;
  /** Rows finished since the last progress signal. */
  private unreported: Partial<OutcomeCounts> = {};
  private readonly askScopes = new Set<CancellationScope>();
  private readonly parent: ExternalWorkflowHandle;

  constructor(readonly input: ChunkInput) {
    this.parent = getExternalWorkflowHandle(input.parentWorkflowId);
    this.recorder = new Batcher<RowResult>(BATCH, async (results) => {
      await local.recordRows({ runId: input.runId, page: input.page, results });
      if (Object.values(this.unreported).reduce((a, b) => a + b, 0) >= REPORT_EVERY) await this.report();
    });
    const { siteId, api } = input.options;
    this.ask = asking(input.options.answerTimeoutMs, siteId, api);
    this.settle = settling(siteId, api);
    this.settleBatch = settlingBatches(siteId, api);
    this.settleBatches = patched('settle-batches');
    this.fullBatchesUntilTail = this.settleBatches && patched('settle-full-batches');
    this.shortTail = this.fullBatchesUntilTail && patched('short-tail');
    this.firstAsks = input.page === 0 && patched('stop-early-systematic') ? new FirstAsks() : undefined;
    this.settler = new Batcher<SettleItem>(BATCH, async (items) => {
      const res = await this.settleRows({ runId: input.runId, page: input.page, siteId: input.options.siteId, items });
      items.forEach((item, i) => {
        if (item.closeSessionId) this.closed(item.closeSessionId, res.items[i]?.close ?? { ok: true });
      });
      if (Object.values(this.unreported).reduce((a, b) => a + b, 0) >= REPORT_EVERY) await this.report();
    });
    if (this.shortTail) this.settler.holdShortly(SHORT_TAIL_HOLD_MS, SHORT_TAIL_IDLE_BATCH);
  }

  /**
   * One batch's settle, retried by Temporal until its deadline; past it, the rows are recorded without any further
   * call (on the main queue), with what the store's marks say was done and the rest failed for the last error.
   */
  private async settleRows(input: SettleRowsInput): Promise<SettleRowsResult> {
    try {
      return await this.settleBatch.settleRows(input);
    } catch (err) {
      return local.settleRows({ ...input, gaveUp: describeFailure(err).message });
    }
  }

  // --- cancellation ---------------------------------------------------------------------------------------------

  /**
   * A cancel is graceful: nothing new is asked, and questions already sent are waited for (at most the answer
   * timeout) so their answers are recorded and their sessions known and closed. A second cancel abandons the
   * questions in flight too.
   */
  stop(): void {
    if (this.cancelled) this.abandonInFlight();
    this.cancelled = true;
  }

  /** A fatal API error, or a second cancel: nothing new is asked and the questions in flight are abandoned. */
  abandonInFlight(): void {
    this.cancelled = true;
    for (const scope of this.askScopes) scope.cancel();
  }

  /** A question goes out in its own scope, so that abandoning it cancels that ask alone. */
  openAsk(rowId: string): CancellationScope {
    const scope = new CancellationScope();
    this.askScopes.add(scope);
    this.inFlight += 1;
    if (this.fullBatchesUntilTail) this.unsettled.add(rowId);
    return scope;
  }

  closeAsk(scope: CancellationScope): void {
    this.inFlight -= 1;
    this.askScopes.delete(scope);
    const systematic = this.firstAsks?.ended();
    if (systematic) this.stopEarly(systematic);
  }

  /** An ask got no answer, for this reason (told right before its `closeAsk`). */
  askFailed(failure: AskFailure): void {
    this.firstAsks?.failed(failure);
  }

  /**
   * The run's first asks all got one refusal: nothing new is asked and the asks in flight are abandoned (most wait in
   * the submit queue, sent nothing yet, and would be refused alike), and the run hears of it now, not when this chunk
   * ends, so it stops its other chunks too.
   */
  private stopEarly(failure: ChunkFailure): void {
    this.fatal ??= failure;
    this.abandonInFlight();
    void this.report().catch(() => undefined);
  }

  // --- rows and progress ----------------------------------------------------------------------------------------

  /** A finished row: counted, and queued for the next record batch. */
  record(result: RowResult): void {
    this.count(result.outcome);
    this.recorder.add(result);
  }

  /**
   * A finished row under `settleBatches`: counted, and queued with its feedback and close for the next batch. The
   * chunk's last few answers go at once: waiting for a batch to fill there would only make the run's tail longer
   * (feedback and closes run at the API's pace, so rows held back would be sent one after another at the end).
   */
  settleLater(item: SettleItem): void {
    this.count(item.result.outcome);
    this.settler.add(item);
    if (!this.fullBatchesUntilTail) {
      if (this.lastHasStarted && this.inFlight < TAIL_BATCH) this.settler.flushNow();
      return;
    }
    this.unsettled.delete(item.result.id);
    if (!this.lastHasStarted) return;
    if (this.unsettled.size < BATCH) this.settler.resize(TAIL_BATCH);
    if (this.unsettled.size < TAIL_BATCH) this.settler.flushNow();
  }

  /** A row answered by an earlier attempt of this run: counted only (it is in the store already). */
  count(outcome: Outcome): void {
    this.counts[outcome] += 1;
    this.unreported[outcome] = (this.unreported[outcome] ?? 0) + 1;
  }

  /**
   * The last conversation has started: the run may start the next chunk, and record batches shrink (settle batches
   * too, before `settle-full-batches`; from it on, once fewer than a batch of asked rows are still to be settled).
   */
  lastStarted(): void {
    this.lastHasStarted = true;
    this.recorder.resize(TAIL_BATCH);
    if (!this.fullBatchesUntilTail) this.settler.resize(TAIL_BATCH);
    void this.report(true).catch(() => undefined);
  }

  /** Tells the run what finished since the last report, and how many questions are in flight. */
  async report(drained?: boolean): Promise<void> {
    const delta = this.unreported;
    this.unreported = {};
    const stopped = this.fatal?.systematic ? { stopped: this.fatal } : {};
    await this.parent.signal(chunkProgressSignal, { page: this.input.page, counts: delta, inFlight: this.inFlight, drained, ...stopped });
  }

  /** Rows counted but not yet reported to the run (a resumed run's earlier answers are counted without a batch). */
  hasUnreported(): boolean {
    return Object.keys(this.unreported).length > 0;
  }

  // --- sessions and side effects --------------------------------------------------------------------------------

  /** Runs a side effect in the background; the chunk waits for all of them before it ends. */
  inBackground(work: Promise<void>): void {
    const p = work.finally(() => this.background.delete(p));
    this.background.add(p);
  }

  /** What became of closing a session. */
  closed(sessionId: string, outcome: CallOutcome): void {
    if (!outcome.ok && this.unsureSessions.has(sessionId) && /^404\b/u.test(outcome.error)) return;
    if (outcome.ok) this.sessionsClosed += 1;
    else this.closeFailures.push({ sessionId, error: outcome.error });
  }

  result(): ChunkResult {
    return {
      counts: this.counts,
      sessionsClosed: this.sessionsClosed,
      sessionsCloseFailed: this.closeFailures.length,
      cancelled: this.cancelled && !this.fatal,
      fatal: this.fatal,
      ...(this.shortTail && this.hasUnreported() && { unreported: this.unreported }),
    };
  }
}
