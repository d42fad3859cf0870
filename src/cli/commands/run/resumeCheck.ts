import type { ResultsStore } from '../../../store/store';
import { Outcome, type RunSummary } from '../../../domain/results';

/** Outcomes a resumed run keeps (activities/resume.ts): every other row (error, timed_out, skipped) is asked again. */
const KEPT: ReadonlySet<string> = new Set([Outcome.answered, Outcome.passed, Outcome.failed]);

/** A run `--resume` would find nothing to send in: finished, with an answer kept for each of the dataset's rows. */
export interface FinishedRun {
  rows: number;
  summary: RunSummary;
}

/**
 * The run when resuming it would send nothing: it has a summary (it finished) and each of the dataset's `rows` has
 * an answer a resume keeps. Resuming such a run would only rewrite its reports with this attempt's session counts
 * (none closed) and change nothing else, so the command says so and leaves it as it is.
 */
export async function finishedRun(store: ResultsStore, runId: string, rows: number): Promise<FinishedRun | undefined> {
  const summary = await store.getSummary(runId);
  if (!summary) return undefined;
  const kept = new Set<string>();
  for await (const row of store.read(runId)) {
    // Confirming answers (`--confirm`) are not rows of the plan the resume compares with.
    if (row.confirm !== undefined) continue;
    if (!KEPT.has(row.outcome)) return undefined;
    kept.add(row.id);
  }
  return kept.size === rows ? { rows, summary } : undefined;
}
