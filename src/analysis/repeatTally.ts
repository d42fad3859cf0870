import { baseIdOf } from '../datasets/repeat';
import { clusteredPassRate, type RowCounts } from './repeatStats';
import { Outcome, type FlakyRow, type RowResult, type RepeatSummary } from '../domain/results';

/** Flaky rows listed in a summary with their answers; `flaky` counts them all. */
const FLAKY_LISTED = 20;
/** Characters of each answer of a flaky row kept in the summary. */
const ANSWER_CHARS = 300;

interface RowTally extends RowCounts {
  index: number;
  question: string;
  answers: FlakyRow['answers'];
}

/**
 * Answers counted by dataset row (their base id), over the repeats of each. Memory: one entry per dataset row with
 * its answers cut short, so the flaky rows can be shown with what they said.
 */
export class RepeatTally {
  private readonly rows = new Map<string, RowTally>();
  private maxRepeat = 1;

  /** @param keepAnswers keep each answer (cut short) for the flaky rows; a baseline comparison needs only counts. */
  constructor(private readonly keepAnswers = true) {}

  add(row: Pick<RowResult, 'id' | 'baseId' | 'repeat' | 'outcome'> & Partial<Pick<RowResult, 'index' | 'question' | 'answer'>>): void {
    const id = baseIdOf(row);
    let tally = this.rows.get(id);
    if (!tally) {
      tally = { index: row.index ?? 0, question: row.question ?? '', passed: 0, graded: 0, answers: [] };
      this.rows.set(id, tally);
    }
    this.maxRepeat = Math.max(this.maxRepeat, row.repeat ?? 1);
    if (row.outcome === Outcome.passed || row.outcome === Outcome.failed) {
      tally.graded++;
      if (row.outcome === Outcome.passed) tally.passed++;
    }
    if (this.keepAnswers) tally.answers.push({ repeat: row.repeat ?? 1, outcome: row.outcome, ...(row.answer !== undefined && { answer: row.answer.slice(0, ANSWER_CHARS) }) });
  }

  /** The most answers asked of one row: the run's `--repeat` (1 without). */
  get repeat(): number {
    return this.maxRepeat;
  }

  /** Passed and graded answers by dataset row id. */
  counts(): ReadonlyMap<string, RowCounts> {
    return this.rows;
  }

  /** The summary's `repeats`; undefined for a run without repeats. */
  summary(): RepeatSummary | undefined {
    if (this.maxRepeat <= 1) return undefined;
    const out: RepeatSummary = {
      n: this.maxRepeat, rows: this.rows.size, allPassed: 0, allFailed: 0, flaky: 0, ungraded: 0,
      kOfN: Object.create(null) as Record<string, number>, passRate: null, flakyRows: [],
    };
    const flaky: (FlakyRow & { index: number })[] = [];
    for (const [id, t] of this.rows) {
      if (t.graded === 0) {
        out.ungraded++;
        continue;
      }
      const key = `${t.passed}/${t.graded}`;
      out.kOfN[key] = (out.kOfN[key] ?? 0) + 1;
      if (t.passed === t.graded) out.allPassed++;
      else if (t.passed === 0) out.allFailed++;
      else {
        out.flaky++;
        flaky.push({ id, index: t.index, question: t.question, passed: t.passed, graded: t.graded, answers: [...t.answers].sort((a, b) => a.repeat - b.repeat) });
      }
    }
    out.flakyRows = flaky.sort((a, b) => a.index - b.index).slice(0, FLAKY_LISTED).map(({ index: _index, ...row }) => row);
    const rate = clusteredPassRate(this.rows.values());
    if (rate) out.passRate = { value: rate.passRate, low: rate.low, high: rate.high, effectiveN: rate.effectiveN, answers: rate.answers, rows: rate.rows };
    return out;
  }
}
