/**
 * The review queue of a run: uncertain rows, then rows that regressed against the run's baseline, then failed rows,
 * then a seeded random sample of passed rows for spot checks. Rows already labelled (a label of the same key exists)
 * stay in the queue, shown as settled. Streams the run; memory holds the queued rows only (capped by `limit`).
 */
import { rowLabelKey } from '../labels/rowSubject';
import { loadBaselineFromStore, baselineRowsFor } from '../analysis/baseline';
import type { PriorTurn } from '../analysis/context';
import type { ResultsStore } from '../store/store';
import { DecidedBy, Outcome, type RowResult, type RunSummary } from '../domain/results';
import { personItem } from './person';
import { Reservoir } from './sample';
import { ReviewReason, type ReviewItem } from './types';

export interface QueueOptions {
  /** Passed rows drawn for spot checks. @default 10 */
  sample?: number;
  /** Seed of the draw. @default the run id (the same queue on every start) */
  seed?: string;
  /** Rows queued at most (uncertain, regressed and failed first); the rest are counted. @default 1000 */
  limit?: number;
  /** Earlier turns kept per row. @default 10 */
  maxTurns?: number;
  /** Characters of an earlier turn's answer kept. @default 2000 */
  maxText?: number;
}

export const DEFAULT_SAMPLE = 10;
export const DEFAULT_LIMIT = 1000;

/** The outcome a row had before any label settled it: its place in the queue does not move when it is labelled. */
function originalOutcome(row: RowResult): Outcome {
  return row.decision?.by === DecidedBy.label ? (row.decision.was ?? row.outcome) : row.outcome;
}

export function reasonOf(row: RowResult, regressed: ReadonlySet<string>): Exclude<ReviewReason, 'spot-check'> | 'passed' | undefined {
  const outcome = originalOutcome(row);
  if (outcome === Outcome.uncertain) return ReviewReason.uncertain;
  if (regressed.has(row.id)) return ReviewReason.regressed;
  if (outcome === Outcome.failed) return ReviewReason.failed;
  if (outcome === Outcome.passed) return 'passed';
  return undefined;
}

export function toItem(runId: string, siteId: string, reason: ReviewItem['reason'], row: RowResult): ReviewItem {
  const { id, question, expected, answer, assertions, decision, outcome, feedback, feedbackError, conversation, turn, tags, error } = row;
  return {
    runId, siteId, rowId: id, reason,
    row: { id, question, expected, answer, assertions, decision, outcome, feedback, feedbackError, conversation, turn, tags, error },
    priorTurns: [], labelKey: rowLabelKey(siteId, row),
  };
}

export interface RunQueue {
  items: ReviewItem[];
  omitted: number;
}

/** The queue of one (single-site) run. */
export async function buildRunQueue(store: ResultsStore, runId: string, summary: RunSummary | undefined, options: QueueOptions = {}): Promise<RunQueue> {
  const { sample = DEFAULT_SAMPLE, seed = runId, limit = DEFAULT_LIMIT, maxTurns = 10, maxText = 2000 } = options;
  const meta = await store.getMeta(runId);
  const siteId = meta?.siteId ?? summary?.siteId ?? '';
  const regressed = new Set(summary?.baseline?.regressed);
  // Each reason kept up to the limit (memory: three times the limit at most), so the cut falls on the last reasons.
  const picked: Record<Exclude<ReviewReason, 'spot-check'>, ReviewItem[]> = { uncertain: [], regressed: [], failed: [] };
  const spot = new Reservoir<RowResult>(sample, seed);
  let queued = 0;
  for await (const row of store.read(runId)) {
    const reason = reasonOf(row, regressed);
    if (reason === undefined) continue;
    if (reason === 'passed') spot.offer(row);
    else {
      queued++;
      if (picked[reason].length < limit) picked[reason].push(toItem(runId, siteId, reason, row));
    }
  }
  const spots = spot.items().sort((a, b) => a.index - b.index).map((row) => toItem(runId, siteId, ReviewReason.spotCheck, row));
  const all = [...picked.uncertain, ...picked.regressed, ...picked.failed, ...spots];
  const items = all.slice(0, limit);
  const omitted = queued + spots.length - items.length;

  await attachPriorTurns(store, runId, items, maxTurns, maxText);
  await attachBaseline(store, summary, items);
  const labels = await store.getLabels(items.map((i) => i.labelKey));
  for (const item of items) {
    const label = labels.get(item.labelKey);
    if (label) item.label = { verdict: label.verdict, note: label.note, by: label.by, at: label.at, source: label.source };
    item.person = personItem(item.row, item.label);
  }
  return { items, omitted };
}

/** One more pass: the earlier turns of each queued follow-up row, oldest first. */
async function attachPriorTurns(store: ResultsStore, runId: string, items: ReviewItem[], maxTurns: number, maxText: number): Promise<void> {
  const byConversation = new Map<string, ReviewItem[]>();
  for (const item of items) {
    const c = item.row.conversation;
    if (c === undefined) continue;
    byConversation.set(c, [...(byConversation.get(c) ?? []), item]);
  }
  if (byConversation.size === 0) return;
  const indexOf = new Map<string, number>();
  const turns = new Map<string, (PriorTurn & { index: number })[]>();
  for await (const row of store.read(runId)) {
    indexOf.set(row.id, row.index);
    for (const target of (row.conversation === undefined ? undefined : byConversation.get(row.conversation)) ?? []) {
      if (row.id === target.rowId) continue;
      turns.set(target.rowId, [...(turns.get(target.rowId) ?? []), { id: row.id, turn: row.turn, question: row.question, answer: row.answer?.slice(0, maxText), outcome: row.outcome, index: row.index }]);
    }
  }
  for (const item of items) {
    const own = { turn: item.row.turn, index: indexOf.get(item.rowId) ?? 0 };
    const before = (turns.get(item.rowId) ?? []).filter((t) => (t.turn !== undefined && own.turn !== undefined ? t.turn < own.turn : t.index < own.index));
    before.sort((x, y) => (x.turn ?? x.index) - (y.turn ?? y.index));
    item.priorTurns = before.slice(-maxTurns).map(({ index: _index, ...turn }) => turn);
  }
}

/** The baseline's answer of every queued row, when the baseline run is in the same store. */
async function attachBaseline(store: ResultsStore, summary: RunSummary | undefined, items: ReviewItem[]): Promise<void> {
  const baselineId = summary?.baseline?.runId;
  if (!baselineId || items.length === 0 || !(await store.getMeta(baselineId))) return;
  const baseline = await loadBaselineFromStore(store, baselineId);
  const rows = await baselineRowsFor(baseline, new Set(items.map((i) => i.rowId)));
  for (const item of items) {
    const row = rows.get(item.rowId);
    if (row) item.baseline = { runId: baselineId, answer: row.answer, outcome: row.outcome };
  }
}
