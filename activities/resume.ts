import { Outcome, type RowResult } from '../src/domain/results';
import type { ResultsStore } from '../src/store/store';

/** What an earlier attempt of the same run recorded for a row that already has an answer. */
export interface PriorAnswer {
  outcome: RowResult['outcome'];
  sessionId?: string;
}

const ANSWERED: ReadonlySet<string> = new Set([Outcome.answered, Outcome.passed, Outcome.failed, Outcome.uncertain]);

/**
 * Rows of a resumed run that already have an answer, so they are never sent again. Built once per run by
 * streaming the store (one small entry per answered row) and kept for the run's pages; one run at a time.
 */
export class ResumeIndex {
  private cached?: { runId: string; answers: Promise<Map<string, PriorAnswer>> };

  constructor(private readonly store: ResultsStore) {}

  get(runId: string): Promise<Map<string, PriorAnswer>> {
    if (this.cached?.runId !== runId) this.cached = { runId, answers: this.load(runId) };
    return this.cached.answers;
  }

  private async load(runId: string): Promise<Map<string, PriorAnswer>> {
    const answers = new Map<string, PriorAnswer>();
    for await (const row of this.store.read(runId)) {
      if (ANSWERED.has(row.outcome)) answers.set(row.id, { outcome: row.outcome, sessionId: row.sessionId });
    }
    return answers;
  }
}
