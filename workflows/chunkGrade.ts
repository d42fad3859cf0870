import { patched } from '@temporalio/workflow';
import type { AskResult, PlannedRow } from '../activities/types';
import { gradeRow } from '../src/grading/gradeRow';
import type { GradeResult } from '../src/grading/types';
import type { ChunkState } from './chunkState';
import { activityEscalator, activityGrader } from './grading';

/**
 * The grading of one answered row: pure graders in the workflow, custom graders and the judge in activities
 * (`gradeRow`). Undefined when the row is not graded: a backfill, or no answer to grade.
 *
 * Not an async function on purpose: the caller awaits `gradeRow`'s own promise, so the turn takes as many steps
 * to reach its next command as it always did (an extra await could reorder commands between conversations).
 * A step that settles a row before the graders (e.g. from a person's label) goes here, behind its own `patched()`,
 * leaving this path as it is for histories without that marker.
 */
export function gradeTurn(state: ChunkState, row: PlannedRow, answer: AskResult): Promise<GradeResult> | undefined {
  const { input } = state;
  if (input.kind !== 'evaluation' || answer.status !== 'completed') return undefined;
  const graded = { answer: answer.answer ?? '', confidenceScore: answer.confidenceScore, latencyMs: answer.latencyMs };
  // Three-way grades: an uncertain row is escalated to the judge (new activities), gets no feedback (one activity
  // less) and ends `uncertain`. Histories recorded before it grade two ways, as they did.
  const threeWay = patched('uncertain-grades');
  const external = activityGrader(row, graded, { runId: input.runId, page: input.page });
  return gradeRow(row, graded, { ...input.options, threeWay }, external, threeWay ? activityEscalator() : undefined);
}
