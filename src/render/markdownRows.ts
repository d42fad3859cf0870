import type { AssertionResult } from '../domain/grade';
import type { PriorTurn } from '../analysis/context';
import { mdFence, mdInline } from './escape';
import { capitalized, DECIDED_BY_A_PERSON, gradersHead, gradersView, personText, personView, type PersonView } from './labelView';
import { Outcome, type RowResult } from '../domain/results';

/** Every assertion a row was graded by, passed or not, with the rule it checks and the grader's reason. */
export function mdAssertions(assertions: readonly AssertionResult[] | undefined): string {
  if (!assertions || assertions.length === 0) return '- no assertion (not graded)';
  return assertions
    .map((a) => `- ${a.pass ? '✅' : a.uncertain ? '❔' : '❌'} ${mdInline(a.type)}${a.rule ? ` (rule: ${mdInline(a.rule, 300)})` : ''}: ${mdInline(a.reason, 500)}`)
    .join('\n');
}

function mdPriorTurns(turns: readonly PriorTurn[] | undefined, maxText: number): string | undefined {
  if (!turns || turns.length === 0) return undefined;
  const lines = turns.map((t) => {
    const label = t.turn === undefined ? mdInline(t.id) : `turn ${t.turn}`;
    return `> **${label}** · ${t.outcome} · Q: ${mdInline(t.question, 300)}\n> A: ${t.answer === undefined ? '_(no answer)_' : mdInline(t.answer, Math.min(maxText, 600))}`;
  });
  return `**Earlier turns of this conversation:**\n\n${lines.join('\n>\n')}`;
}

function errorLine(row: RowResult): string | undefined {
  if (row.error === undefined && row.outcome !== Outcome.timedOut) return undefined;
  const type = row.errorType ?? (row.outcome === Outcome.timedOut ? 'TimedOut' : 'Error');
  return `**Error:** ${mdInline(type)}: ${mdInline(row.error ?? 'no answer before the time-out', 500)}`;
}

/** A row a label settled: the person's decision (who, when, the note), then what the graders said, with their assertions. */
function mdPersonDecision(row: RowResult, person: PersonView): string[] {
  const graders = gradersView(row);
  const head = `**${capitalized(DECIDED_BY_A_PERSON)}:** ${mdInline(personText(person), 1500)}`;
  const said = `**${mdInline(capitalized(gradersHead(graders)))}**`;
  return [head, graders.verdict === undefined ? said : `${said}\n\n${mdAssertions(graders.assertions)}`];
}

export interface RowDetailOptions {
  maxText: number;
  priorTurns?: readonly PriorTurn[];
  /** For regressed and fixed rows: the baseline's row, and its run id. */
  baseline?: { runId: string; row?: RowResult };
}

/** One row in full: question, earlier turns, answer and grade (and the baseline's, side by side in reading order). */
export function mdRowDetail(row: RowResult, options: RowDetailOptions): string {
  const { maxText, baseline } = options;
  const tags = row.tags?.length ? ` · tags ${mdInline(row.tags.join(', '))}` : '';
  const was = baseline?.row ? ` (was ${baseline.row.outcome} in ${mdInline(baseline.runId)})` : '';
  const person = personView(row);
  const parts = [
    `### Row ${mdInline(row.id)} · ${row.outcome}${person ? ` · ${DECIDED_BY_A_PERSON}` : ''}${was} · line ${row.line}${tags}`,
    `**Question:** ${mdInline(row.question, 500)}`,
  ];
  const prior = mdPriorTurns(options.priorTurns, maxText);
  if (prior) parts.push(prior);
  if (row.answer !== undefined) parts.push(`**Answer${baseline ? ' now' : ''}:**\n\n${mdFence(row.answer, maxText)}`);
  if (person) parts.push(...mdPersonDecision(row, person));
  else if (row.outcome === Outcome.passed || row.outcome === Outcome.failed || row.assertions) {
    parts.push(`**Graded${baseline ? ' now' : ''} by:**\n\n${mdAssertions(row.assertions)}`);
  }
  if (baseline) {
    const then = baseline.row;
    if (!then) parts.push(`**Baseline answer (${mdInline(baseline.runId)}):** _not loaded_`);
    else {
      parts.push(`**Baseline answer (${mdInline(baseline.runId)}, ${then.outcome}):**\n\n${then.answer === undefined ? '_(no answer)_' : mdFence(then.answer, maxText)}`);
      parts.push(`**Graded then by:**\n\n${mdAssertions(then.assertions)}`);
    }
  }
  if (row.expected !== undefined) parts.push(`**Expected:**\n\n${mdFence(row.expected, maxText)}`);
  const error = errorLine(row);
  if (error) parts.push(error);
  return parts.join('\n\n');
}
