import { baseIdOf } from '../datasets/repeat';
import { Outcome, type Confirmation, type ConfirmingAnswer, type RowResult } from '../domain/results';

/** Rows whose confirming answers a summary lists. */
const ROWS_LISTED = 20;
/** Characters of each confirming answer kept. */
const ANSWER_CHARS = 300;

/** The confirming answers of a run (`--confirm`), by the dataset row they confirm. */
export class ConfirmTally {
  private readonly byRow = new Map<string, ConfirmingAnswer[]>();
  private questions = 0;
  private k = 0;

  add(row: RowResult): void {
    if (row.confirm === undefined) return;
    const id = baseIdOf(row);
    const list = this.byRow.get(id) ?? [];
    list.push({ confirm: row.confirm, outcome: row.outcome, ...(row.answer !== undefined && { answer: row.answer.slice(0, ANSWER_CHARS) }) });
    this.byRow.set(id, list);
    this.questions++;
    this.k = Math.max(this.k, row.confirm);
  }

  get empty(): boolean {
    return this.questions === 0;
  }

  /**
   * Splits the regressed ids: rows asked again whose graded confirming answers did not mostly fail are `notReproduced`;
   * the others asked again are `reproduced` (all their confirming answers erroring included: nothing spoke against
   * them); rows never asked again (sequential confirmation stopped before them) are `unconfirmed`.
   */
  judge(regressed: readonly string[]): Confirmation {
    const reproduced: string[] = [];
    const notReproduced: string[] = [];
    const unconfirmed: string[] = [];
    for (const id of regressed) {
      const answers = this.byRow.get(id);
      if (!answers) {
        unconfirmed.push(id);
        continue;
      }
      const graded = answers.filter((a) => a.outcome === Outcome.passed || a.outcome === Outcome.failed);
      const failed = graded.filter((a) => a.outcome === Outcome.failed).length;
      if (graded.length > 0 && failed * 2 <= graded.length) notReproduced.push(id);
      else reproduced.push(id);
    }
    // Earlier turns of a regressed conversation were asked again too, as context: only the regressed rows are listed.
    const asked = regressed.filter((id) => this.byRow.has(id));
    const listed = asked.slice(0, ROWS_LISTED).map((id) => ({ id, answers: [...(this.byRow.get(id) ?? [])].sort((a, b) => a.confirm - b.confirm) }));
    return { k: this.k, rows: asked.length, questions: this.questions, reproduced, notReproduced, unconfirmed, answers: listed };
  }
}
