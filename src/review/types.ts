import type { Label, LabelVerdict } from '../domain/label';
import type { PriorTurn } from '../analysis/context';
import type { GateResult, Outcome, RowResult } from '../domain/results';

/** Why a row is in the review queue, in queue order. */
export const ReviewReason = {
  uncertain: 'uncertain',
  regressed: 'regressed',
  failed: 'failed',
  /** A passed row drawn at random (seeded) for a spot check. */
  spotCheck: 'spot-check',
} as const;
export type ReviewReason = (typeof ReviewReason)[keyof typeof ReviewReason];

/** One row as the review page shows it. Text fields are untrusted (answers come from the site): the page escapes them. */
export interface ReviewItem {
  runId: string;
  siteId: string;
  rowId: string;
  reason: ReviewReason;
  row: Pick<RowResult, 'id' | 'question' | 'expected' | 'answer' | 'assertions' | 'decision' | 'outcome' | 'feedback' | 'feedbackError' | 'conversation' | 'turn' | 'tags' | 'error'>;
  priorTurns: PriorTurn[];
  /** The baseline run's row: its answer and outcome. */
  baseline?: { runId: string; answer?: string; outcome: Outcome };
  labelKey: string;
  /** The label already given for this row's key (here or anywhere): the row is settled. */
  label?: Pick<Label, 'verdict' | 'note' | 'by' | 'at' | 'source'>;
  /** A row a person settled (its own label, else a label of its key), in the words of the reports (person.ts). */
  person?: PersonItem;
}

/** What the page shows of a row a person settled: "Decided by a person" with who, when and the note, and what the graders said. */
export interface PersonItem {
  verdict: LabelVerdict;
  /** "Decided by a person: pass". */
  head: string;
  /** "by ana · 2026-11-28 10:04 UTC" (a row settled before these were kept: its reason). */
  facts: string;
  note?: string;
  /** "Graders said uncertain (overruled by the person)", or that no grader ran. */
  graders: string;
  /** False when no grader ran (a run found the label before grading): there is no assertion to list. */
  gradersRan: boolean;
}

/** A run under review: one for a single-site run, one per site of a multi-site run. */
export interface ReviewRun {
  runId: string;
  siteId: string;
  verdict: GateResult['verdict'] | null;
  passRate: number | null;
  uncertain: number;
  reviewed: number;
  reasons: string[];
}

export interface ReviewState {
  /** The run id given (a multi-site parent, or a single run). */
  runId: string;
  runs: ReviewRun[];
  items: ReviewItem[];
  /** Rows left out of the queue past its limit. */
  omitted: number;
  /** Passed rows drawn for spot checks, and the seed that drew them. */
  sample: { size: number; seed: string };
}

export interface SaveRequest {
  runId: string;
  rowId: string;
  verdict: LabelVerdict;
  note?: string;
}

/** What became of a row's feedback when its label was saved. */
export type FeedbackStart =
  | { state: 'started'; workflowId: string }
  | { state: 'already-started'; workflowId: string }
  /** Sent during the run (or earlier), so not sent again: the site keeps that value. */
  | { state: 'sent-before'; value: 'good' | 'bad' | 'failed' }
  | { state: 'not-due'; why: string };

export interface SaveResult {
  item: ReviewItem;
  feedback: FeedbackStart;
  run: ReviewRun;
}
