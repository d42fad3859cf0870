import type { RunInput, RunResult } from '../src/domain/run';
import { runDataset } from './run';

export { runChunk } from './chunk';
export { multiSiteRun } from './multiSite';
export { sessionCleanup } from './cleanup';
export { labelFeedback } from './labelFeedback';

/** Nightly answer-quality regression run: dataset → answers → grades → feedback → sessions closed → report. */
export async function evaluationRun(input: RunInput): Promise<RunResult> {
  return runDataset({ ...input, kind: 'evaluation' });
}

/** Bulk backfill: every question sent, every answer recorded (per email / session); no grading, no feedback. */
export async function backfillRun(input: RunInput): Promise<RunResult> {
  return runDataset({ ...input, kind: 'backfill', options: { ...input.options, feedback: 'none' } });
}
