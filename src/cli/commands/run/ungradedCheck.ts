/**
 * An evaluation in which no row has anything to grade would answer every question and end "pass rate n/a (0/0
 * graded)", "no quality threshold set", exit 0: a misspelt or missing assertion column would pass for a green run.
 * It is refused before the start instead, unless asked for (`--allow-ungraded`). Pure.
 */
import type { AssertionSpec } from '../../../domain/grade';
import { ASSERTION_COLUMNS, assertionsForRow, comparesWithExpected, usesRowRubric, type RowAssertionColumns } from '../../../grading/assertions';

/** Whether a row is graded in a run with these default assertions: the rule the workflow grades by. */
export function isGradedRow(row: RowAssertionColumns, defaults: readonly AssertionSpec[] = []): boolean {
  return assertionsForRow(row, defaults).length > 0;
}

/** What the message needs to know of the run. */
export interface UngradedContext {
  /** The dataset as the user named it. */
  dataset: string;
  /** Its columns, in first-seen order. */
  columns: readonly string[];
  /** The config's default assertions, and its file when one was given. */
  assertions: readonly AssertionSpec[];
  configFile?: string;
}

/** The lines that refuse an evaluation without anything to grade: what grades a row, and the ways on. */
export function ungradedMessage(ctx: UngradedContext): string[] {
  const columns = ASSERTION_COLUMNS.filter((c) => c !== 'expected').map((c) => `\`${c}\``).join(', ');
  const lines = [
    `${ctx.dataset}: no row has anything to grade, so this evaluation could neither pass nor fail on its answers (its columns: ${ctx.columns.join(', ')})`,
    `a row is graded by its reference answer (\`expected\`) or its assertion columns (${columns}): add them to the rows (docs/datasets.md)`,
  ];
  if (ctx.assertions.length === 0) {
    lines.push('or give every row assertions in a config file: --config FILE with `assertions:` (docs/grading.md)');
  } else {
    const needs = [
      ctx.assertions.some(comparesWithExpected) ? '`expected`' : undefined,
      ctx.assertions.some(usesRowRubric) ? '`rubric`' : undefined,
    ].filter((n) => n !== undefined);
    lines.push(`the config's assertions (${ctx.configFile ?? 'the config'}) grade a row only when it has ${needs.join(' or ')}, which no row has`);
  }
  lines.push('to collect answers without grading them, use `sitechat backfill`; to run ungraded anyway, pass --allow-ungraded (config: `allowUngraded: true`)');
  return lines;
}
