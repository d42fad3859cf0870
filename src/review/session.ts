/**
 * One review: the runs under review, their queue in memory, and saves one at a time (each rewrites the run's
 * reports; two at once would race on the same files).
 */
import { buildRunQueue, type QueueOptions } from './queue';
import { reconcileRun, type Reconciled } from './reconcile';
import { personItem } from './person';
import { refreshRun } from './refresh';
import { refreshMultiSite, type ReviewTarget } from './runs';
import { reviewSource, saveLabel, type ReviewDeps } from './save';
import { ReviewRequestError } from './errors';
import type { ReviewItem, ReviewRun, ReviewState, SaveRequest, SaveResult } from './types';
import type { RunMeta, RunSummary } from '../domain/results';
import { labelAgreement, type AgreementReport, type LabelledAnswer } from '../labels/agreement';
import { labelledAnswersOfRun } from '../labels/agreementSources';

function runLine(meta: RunMeta, summary: RunSummary | undefined): ReviewRun {
  return {
    runId: meta.runId, siteId: meta.siteId, verdict: summary?.gate?.verdict ?? null, passRate: summary?.passRate ?? null,
    uncertain: summary?.uncertain ?? 0, reviewed: summary?.reviewed ?? 0, reasons: summary?.gate?.reasons ?? [],
  };
}

export class ReviewSession {
  private state: ReviewState | undefined;
  private saving: Promise<unknown> = Promise.resolve();
  /** Saves waiting behind the one in progress, per run: while some wait, the reports are rewritten by the last. */
  private readonly waiting = new Map<string, number>();
  /** Runs with saves whose report rewrite was left to a later save. */
  private readonly deferred = new Set<string>();

  constructor(private readonly deps: ReviewDeps, private readonly target: ReviewTarget, private readonly queue: QueueOptions & { sample: number; seed?: string }) {}

  /** Finishes what earlier saves left undone, then builds the queue. */
  async open(): Promise<Reconciled> {
    const total: Reconciled = { applied: 0, feedbackStarted: 0 };
    for (const meta of this.target.runs) {
      const r = await reconcileRun(this.deps, meta);
      total.applied += r.applied;
      total.feedbackStarted += r.feedbackStarted;
    }
    if (total.applied > 0) await refreshMultiSite(this.deps.store, this.target, this.deps.runsDir);
    await this.load();
    return total;
  }

  private async load(): Promise<void> {
    const runs: ReviewRun[] = [];
    const items: ReviewItem[] = [];
    let omitted = 0;
    const seed = this.queue.seed ?? this.target.runId;
    for (const meta of this.target.runs) {
      const summary = await this.deps.store.getSummary(meta.runId);
      runs.push(runLine(meta, summary));
      const q = await buildRunQueue(this.deps.store, meta.runId, summary, { ...this.queue, seed: `${seed}/${meta.siteId}` });
      items.push(...q.items);
      omitted += q.omitted;
    }
    // Across sites, the same order: every site's uncertain rows first, and so on.
    const order = { uncertain: 0, regressed: 1, failed: 2, 'spot-check': 3 } as const;
    items.sort((a, b) => order[a.reason] - order[b.reason]);
    this.state = { runId: this.target.runId, runs, items, omitted, sample: { size: this.queue.sample, seed } };
  }

  /**
   * The graders' agreement with the labels of the rows under review (every run of the review, each with its site's
   * labels): the figures of `sitechat labels agreement --run`, shown on the page as labels accumulate.
   */
  async agreement(): Promise<AgreementReport> {
    const items: LabelledAnswer[] = [];
    for (const meta of this.target.runs) items.push(...(await labelledAnswersOfRun(this.deps.store, meta.runId, meta.siteId)));
    return labelAgreement(items);
  }

  snapshot(): ReviewState {
    if (!this.state) throw new Error('review session not opened');
    return this.state;
  }

  save(request: SaveRequest): Promise<SaveResult> {
    this.waiting.set(request.runId, (this.waiting.get(request.runId) ?? 0) + 1);
    const next = this.saving.then(() => {
      const left = (this.waiting.get(request.runId) ?? 1) - 1;
      this.waiting.set(request.runId, left);
      return this.saveNow(request, left === 0);
    });
    this.saving = next.catch(() => undefined);
    return next;
  }

  private async saveNow(request: SaveRequest, refresh: boolean): Promise<SaveResult> {
    const state = this.snapshot();
    const meta = this.target.runs.find((m) => m.runId === request.runId);
    const item = state.items.find((i) => i.runId === request.runId && i.rowId === request.rowId);
    if (!meta || !item) throw new ReviewRequestError(`row ${request.rowId} of run ${request.runId} is not in this review`, 404);
    let saved;
    try {
      saved = await saveLabel(this.deps, meta, request, refresh);
    } catch (err) {
      // The saves deferred to this one still get their reports.
      if (refresh && this.deferred.delete(meta.runId)) await refreshRun(this.deps.store, meta.runId, { runsDir: this.deps.runsDir });
      throw err;
    }
    if (refresh) {
      this.deferred.delete(meta.runId);
      await refreshMultiSite(this.deps.store, this.target, this.deps.runsDir);
    } else this.deferred.add(meta.runId);
    const { decision, outcome, feedback, feedbackError } = saved.row;
    Object.assign(item.row, { decision, outcome, feedback, feedbackError });
    // The label as saved: its time is the one the row's decision and the store hold.
    item.label = { verdict: request.verdict, note: request.note?.trim() || undefined, by: this.deps.by, at: decision?.label?.at ?? new Date().toISOString(), source: reviewSource(meta.runId) };
    // Other rows with the same key (the same answer to the same question) are settled by this label too.
    for (const other of state.items) {
      if (other.labelKey !== item.labelKey || other.siteId !== item.siteId) continue;
      other.label = item.label;
      other.person = personItem(other.row, other.label);
    }
    // Deferred: the verdict as last computed; the last waiting save's answer brings the new one.
    const run = saved.summary ? runLine(meta, saved.summary) : (state.runs.find((r) => r.runId === meta.runId) ?? runLine(meta, undefined));
    state.runs = state.runs.map((r) => (r.runId === run.runId ? run : r));
    return { item, feedback: saved.feedback, run };
  }
}
