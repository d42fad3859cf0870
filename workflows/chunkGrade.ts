import type { AskResult, PlannedRow } from '../activities/types';
import { gradeRow } from '../src/grading/gradeRow';
import type { GradeResult } from '../src/domain/grade';
import { feedbackForLabel, labelledResult } from '../src/labels/apply';
import type { RowResult } from '../src/domain/results';
import type { ChunkState } from './chunkState';
import { activityEscalator, activityGrader } from './grading';

/**
 * The grading of one answered row: pure graders in the workflow, custom graders and the judge in activities
 * (`gradeRow`). Undefined when the row is not graded: a backfill, or no answer to grade.
 *
 * Not an async function on purpose: the caller awaits `gradeRow`'s own promise. An extra await would put the turn's
 * next command a step later, after other conversations' commands: a change in the commands a history holds.
 * A row a person labelled is settled before this (`labelledTurn`).
 */
export function gradeTurn(state: ChunkState, row: PlannedRow, answer: AskResult): Promise<GradeResult> | undefined {
  const { input } = state;
  if (input.kind !== 'evaluation' || answer.status !== 'completed') return undefined;
  const graded = { answer: answer.answer ?? '', confidenceScore: answer.confidenceScore, latencyMs: answer.latencyMs };
  // Three-way grades: an uncertain row is escalated to the judge, gets no feedback and ends `uncertain`.
  const external = activityGrader(row, graded, { runId: input.runId, page: input.page });
  return gradeRow(row, graded, input.options, external, activityEscalator());
}

/**
 * Whether this turn's ask looks up the answer's label: in runs that grade. Labels first: a labelled row is settled by
 * its label with no grader and no judge (fewer activities than grading it).
 */
export function looksUpLabels(state: ChunkState): boolean {
  return state.input.kind === 'evaluation';
}

/**
 * The answered row settled by its label, with the feedback it earns (`good`/`bad`: a label is a settled grade);
 * undefined when the answer has no label.
 */
export function labelledTurn(state: ChunkState, answered: RowResult, answer: AskResult): { result: RowResult; verdict: 'good' | 'bad' } | undefined {
  if (!answer.label || answer.status !== 'completed') return undefined;
  return { result: labelledResult(answered, answer.label), verdict: feedbackForLabel(answer.label) };
}
