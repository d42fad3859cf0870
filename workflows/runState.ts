import { CancellationScope, type ChildWorkflowHandle } from '@temporalio/workflow';
import type { runChunk } from './chunk';
import { describeFailure } from './activityFailure';
import { cancelSignal, type ChunkProgress } from './signals';
import type { ChunkFailure } from '../src/domain/stopEarly';
import { addCounts, emptyCounts, type ChunkResult, type RunCarry, type RunInput, type RunProgress } from '../src/domain/run';

/** What the run works through: its rows, conversations and pages, and the API it asks. */
export type RunPlan = RunCarry['plan'];

/**
 * Everything a run's steps share: its input, the plan, progress (what the progress query shows), the chunks open and
 * how far the pages got, the sessions its chunks closed, and whether it is stopping and why. The steps (`prepare` and
 * `runDataset` in run.ts, runPages.ts, runConfirm.ts, runFinalize.ts) read and change it only through this object.
 *
 * Nothing here issues a command on construction.
 */
export class RunState {
  /** The run's input (its run id resolved); after `planned`, with the API the run asks. */
  input: RunInput;
  readonly progress: RunProgress;
  /** Set by `planned`, before any step reads it. */
  plan: RunPlan = { rows: 0, units: 0, pages: 0 };
  /** The next page of the plan to start. */
  nextPage: number;
  sessionsClosed: number;
  sessionsCloseFailed: number;
  /** Nothing new is started: a cancel, or the run stopped (`fatal`). */
  cancelled = false;
  /** The error that stops the run: a failed preflight, or a chunk's error no row can recover from. */
  fatal: ChunkFailure | undefined;
  /** Page 0 said the run's first asks all got one refusal (stopEarly.ts). */
  stoppedEarly: ChunkFailure | undefined;
  /** Open chunks by page. */
  readonly running = new Map<number, ChildWorkflowHandle<typeof runChunk>>();
  /** Chunks being started: counted against the bound on open chunks until `running` holds them. */
  starting = 0;
  /** Every chunk's end (its result taken in): the run waits for all of them. */
  readonly completions: Promise<void>[] = [];
  /** Pages whose chunk has sent its last question. */
  private readonly drained = new Set<number>();
  private readonly inFlightByPage = new Map<number, number>();

  constructor(input: RunInput, readonly workflowId: string) {
    this.input = input;
    const { carry } = input;
    this.nextPage = carry?.nextPage ?? 0;
    this.sessionsClosed = carry?.sessionsClosed ?? 0;
    this.sessionsCloseFailed = carry?.sessionsCloseFailed ?? 0;
    this.progress = {
      runId: this.input.runId, total: carry?.plan.rows ?? 0, counts: carry ? { ...carry.counts } : emptyCounts(), inFlight: 0,
      chunksDone: this.nextPage, chunks: carry?.plan.pages ?? 0, startedAt: carry?.startedAt ?? Date.now(),
      updatedAt: Date.now(), throughput: 0, cancelling: false, phase: carry ? 'running' : 'preparing',
    };
  }

  /**
   * The plan is made (or carried). A run started without its API (a schedule, `run --no-worker` without
   * SITECHAT_BASE_URL) asks the API of the worker that prepared it, from here on and in its next histories.
   */
  planned(plan: RunPlan): void {
    this.plan = plan;
    this.progress.total = plan.rows;
    this.progress.chunks = plan.pages;
    if (this.input.options.api === undefined && plan.api !== undefined) this.input.options = { ...this.input.options, api: plan.api };
  }

  /** Nothing new is to start: a cancel, or the run stopped. */
  stopping(): boolean {
    return this.cancelled || !!this.fatal;
  }

  /**
   * Stops starting chunks and passes the cancel on to the open ones, every time: their first cancel drains, a second
   * abandons what is in flight. `stopped`: the run's first asks' refusal, which is not a cancel (the run ends with
   * that error), passed on for the reason of the chunks' unsent rows.
   */
  cancel(stopped?: ChunkFailure): void {
    this.cancelled = true;
    if (!stopped) this.progress.cancelling = true;
    for (const child of this.running.values()) {
      void CancellationScope.nonCancellable(() => (stopped ? child.signal(cancelSignal, stopped) : child.signal(cancelSignal))).catch(() => undefined);
    }
  }

  /** A chunk's progress signal. Page 0's word that the first asks were refused stops the other chunks at once. */
  chunkProgress({ page, counts, inFlight, drained, stopped }: ChunkProgress): void {
    addCounts(this.progress.counts, counts);
    if (stopped && !this.stoppedEarly) {
      this.stoppedEarly = stopped;
      this.cancel(stopped);
    }
    this.inFlightByPage.set(page, inFlight);
    if (drained) this.drained.add(page);
    this.progress.inFlight = [...this.inFlightByPage.values()].reduce((a, b) => a + b, 0);
    this.progress.updatedAt = Date.now();
  }

  /** The chunk of `page` has sent its last question: the next one may start. */
  hasDrained(page: number): boolean {
    return this.drained.has(page);
  }

  chunkStarted(page: number, child: ChildWorkflowHandle<typeof runChunk>): void {
    this.running.set(page, child);
    this.progress.chunksOpen = this.running.size;
  }

  /** A chunk's result: what it counted since its last progress signal, the sessions it closed, and its fatal error. */
  chunkCompleted(res: ChunkResult): void {
    if (res.unreported) addCounts(this.progress.counts, res.unreported);
    this.sessionsClosed += res.sessionsClosed;
    this.sessionsCloseFailed += res.sessionsCloseFailed;
    if (res.fatal) this.fatal ??= res.fatal;
  }

  chunkFailed(err: unknown): void {
    this.fatal ??= describeFailure(err);
  }

  /** A chunk has ended, either way. A fatal error stops the others (a systematic one as such, not as a cancel). */
  chunkEnded(page: number): void {
    this.running.delete(page);
    this.progress.chunksOpen = this.running.size;
    this.inFlightByPage.delete(page);
    this.progress.chunksDone += 1;
    if (this.fatal) this.cancel(this.fatal.systematic ? this.fatal : undefined);
  }

  /** Pages are left that this history did not start, and nothing stops the run: it goes on in a new history. */
  continuesAsNew(): boolean {
    return this.nextPage < this.plan.pages && !this.stopping();
  }

  /** The input of the run's next history: where it stands. */
  carried(): RunInput {
    const { plan, nextPage, sessionsClosed, sessionsCloseFailed, progress } = this;
    return { ...this.input, carry: { plan, nextPage, counts: progress.counts, sessionsClosed, sessionsCloseFailed, startedAt: progress.startedAt } };
  }

  /** Every page has ended or will not start. Page 0's refusal is the run's error, should page 0 itself have ended on another first. */
  finishing(): void {
    this.progress.phase = 'finishing';
    this.progress.inFlight = 0;
    this.fatal ??= this.stoppedEarly;
  }

  /** What the progress query answers: progress with its rates, and the workflows of the run and its open chunks. */
  snapshot(): RunProgress {
    const p: RunProgress = { ...this.progress, workflows: [this.workflowId, ...[...this.running.keys()].map((page) => chunkWorkflowId(this.workflowId, page))] };
    const done = Object.values(p.counts).reduce((a, b) => a + b, 0);
    const elapsed = Math.max(1, p.updatedAt - p.startedAt);
    const throughput = (done / elapsed) * 1000;
    const left = p.total - done;
    return { ...p, throughput, etaMs: throughput > 0 && left > 0 ? (left / throughput) * 1000 : undefined };
  }
}

export function chunkWorkflowId(runWorkflowId: string, page: number): string {
  return `${runWorkflowId}/chunk-${page}`;
}
