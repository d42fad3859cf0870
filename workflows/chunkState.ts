import { CancellationScope, getExternalWorkflowHandle, type ExternalWorkflowHandle } from '@temporalio/workflow';
import type { RunActivities } from '../activities';
import type { CallOutcome, SettleItem, SettleRowsInput, SettleRowsResult } from '../activities/types';
import type { Outcome, SessionCloseFailure } from '../src/domain/results';
import { asking, local, settling, settlingBatches } from './activityProxies';
import { describeFailure } from './activityFailure';
import { Batcher, type BatchHolds } from './batcher';
import { chunkProgressSignal } from './signals';
import { FirstAsks, type AskFailure, type ChunkFailure } from '../src/domain/stopEarly';
import { emptyCounts, type ChunkInput, type ChunkResult, type OutcomeCounts } from '../src/domain/run';

/**
 * Rows per settle batch (`settleRows`: the rows' feedback, closes and records in one activity). 10 keeps the results
 * store at most a few seconds behind the answers.
 */
const BATCH = 10;
/** Finished rows between two progress signals to the run (each costs the run's history ~4 events). */
const REPORT_EVERY = 20;
/** Once fewer than a batch of asked rows are still to be settled, batches shrink so the chunk's tail ends soon. */
const TAIL_BATCH = 3;
/**
 * When a batch goes before it is full (see `Batcher`): at the API's pace (5 requests/s per path, spec §8) the feedback
 * and close paths carry as many calls as the submit path, with no time to spare, so a second in which a path had room
 * while rows waited for a fuller batch is never made up: a 150-row run with batches of 10 ended 2–2.5 s after its last
 * answer. Settling whenever the chunk has no batch in flight ended it 0.0–0.2 s after, but at 0.5–0.7 batches per row
 * (billable actions over the 1.6 per row budget); waiting for a second row keeps about that tail at 0.35–0.45. Rows
 * that finish faster than a batch takes (the engine ceiling) still make batches of {@link BATCH}. BENCHMARKS.md, "The
 * tail".
 */
const HOLDS: BatchHolds = { maxMs: 1000, idleBatch: 2 };

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
  /** The run's first asks, watched for a systematic refusal (stopEarly.ts): page 0's, which holds the first rows. */
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
  /** Sessions being closed on their own (`closeSession`); the chunk waits for all of them before it ends. */
  readonly background = new Set<Promise<void>>();
  /**
   * Finished rows with their feedback and closes, settled and recorded in batches (`settleRows`). A settle per row
   * would cost an activity (3 history events, 1 billable action) per answered row, and its completion would wake the
   * chunk on its own; a batch costs one for up to {@link BATCH} rows.
   */
  readonly settler: Batcher<SettleItem>;
  /**
   * Rows asked and not yet settled. Unlike `inFlight`, a row stays here until its settle is queued: answers that
   * arrive together are all out of flight before the first of them is settled, so `inFlight` alone would make every
   * one of them look like the chunk's last (and each would go in a batch of its own). Batches shrink to
   * {@link TAIL_BATCH} only once fewer than {@link BATCH} of these are left (the rows still to come could not fill a
   * batch), not as soon as the last conversation has started: a chunk whose conversations all start at once (a window
   * as large as the page, as at the engine ceiling) would otherwise settle in batches of 3 throughout.
   */
  private readonly unsettled = new Set<string>();
  /** The ask activity (submit + poll), with this run's answer timeout. */
  readonly ask: RunActivities;
  /** The settle activity (feedback and close) on the feedback queue: a session closed on its own. */
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
    const { siteId, api } = input.options;
    this.ask = asking(input.options.answerTimeoutMs, siteId, api);
    this.settle = settling(siteId, api);
    this.settleBatch = settlingBatches(siteId, api);
    this.firstAsks = input.page === 0 ? new FirstAsks() : undefined;
    this.settler = new Batcher<SettleItem>(BATCH, HOLDS, async (items) => {
      const res = await this.settleRows({ runId: input.runId, page: input.page, siteId: input.options.siteId, items });
      items.forEach((item, i) => {
        if (item.closeSessionId) this.closed(item.closeSessionId, res.items[i]?.close ?? { ok: true });
      });
      if (Object.values(this.unreported).reduce((a, b) => a + b, 0) >= REPORT_EVERY) await this.report();
    });
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
    this.unsettled.add(rowId);
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

  /**
   * A finished row: counted, and queued with its feedback and close for the next batch. The chunk's last few answers
   * go at once: waiting for a batch to fill there would only make the run's tail longer (feedback and closes run at
   * the API's pace, so rows held back would be sent one after another at the end).
   */
  settleLater(item: SettleItem): void {
    this.count(item.result.outcome);
    this.settler.add(item);
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

  /** The last conversation has started: the run may start the next chunk, and the tail's batches may shrink. */
  lastStarted(): void {
    this.lastHasStarted = true;
    void this.report(true).catch(() => undefined);
  }

  /** Tells the run what finished since the last report, and how many questions are in flight. */
  async report(drained?: boolean): Promise<void> {
    const delta = this.unreported;
    this.unreported = {};
    const stopped = this.fatal?.systematic ? { stopped: this.fatal } : {};
    await this.parent.signal(chunkProgressSignal, { page: this.input.page, counts: delta, inFlight: this.inFlight, drained, ...stopped });
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

  /** The chunk's result: with the rows counted since its last progress signal, which the run adds itself. */
  result(): ChunkResult {
    const unreported = Object.keys(this.unreported).length > 0 ? { unreported: this.unreported } : {};
    return {
      counts: this.counts,
      sessionsClosed: this.sessionsClosed,
      sessionsCloseFailed: this.closeFailures.length,
      cancelled: this.cancelled && !this.fatal,
      fatal: this.fatal,
      ...unreported,
    };
  }
}
