/** Markdown for the agreement bench: one table per grader, one threshold sweep of `reference`. */
import type { Excluded, JudgedAnswer } from './agreementData';

/** A subset of the judged answers the tables break agreement down by. */
export interface Slice {
  name: string;
  answers: readonly JudgedAnswer[];
}

/** A grader's disagreements with the judges, over all answers. */
export interface Errors {
  /** Answers the judges call incorrect that the grader passes. */
  wrongPassed: number;
  /** Answers the judges call correct that the grader fails. */
  rightFailed: number;
}

/** Everything the report shows; agreements are listed in slice order. */
export interface AgreementTable {
  questions: number;
  excluded: Excluded;
  slices: { name: string; size: number; humanCorrect: number }[];
  rows: { name: string; rule: string; agreement: number[]; errors: Errors }[];
  sweep: { threshold: number; agreement: number[]; errors: Errors }[];
  /** Answers "contains (normalized)" passes and `reference` fails (by design 0 but for function-word references). */
  containsNotReference: number;
  defaultThreshold: number;
}

const pct = (x: number): string => (Number.isNaN(x) ? '–' : x.toFixed(3));

function header(t: AgreementTable, first: string): string[] {
  return [
    `| ${first} | ${t.slices.map((s) => `${s.name} (n=${s.size})`).join(' | ')} | wrong passed | right failed |`,
    `|---|${t.slices.map(() => '---:').join('|')}|---:|---:|`,
  ];
}

const errorCells = (e: Errors): string => `${e.wrongPassed} | ${e.rightFailed}`;

/** The lexical baselines a grader is compared with: token F1 and substring matches, each against every reference. */
export const LEXICAL_BASELINES = ['f1', 'contains-any', 'contains (normalized)'] as const;

/**
 * The headline: `reference` against the best lexical baseline on all answers and on answers over five words (the
 * columns of index 0 and 1), on the set it was tuned on.
 */
export function headline(t: AgreementTable): string {
  const reference = t.rows.find((r) => r.name === 'reference');
  const baselines = t.rows.filter((r) => (LEXICAL_BASELINES as readonly string[]).includes(r.name));
  if (!reference || baselines.length === 0) return '';
  const bestAt = (i: number) => baselines.reduce((a, b) => ((b.agreement[i] ?? 0) > (a.agreement[i] ?? 0) ? b : a));
  const [all, long] = [bestAt(0), bestAt(1)];
  return `**Development set** (EVOUNA TQ: the set the \`reference\` rules were tuned on, so not a held-out estimate): `
    + `\`reference\` agrees with the human judgment on ${pct(reference.agreement[0] ?? NaN)} of all answers and ${pct(reference.agreement[1] ?? NaN)} of answers over five words; `
    + `the best lexical baseline (token F1 or contains, against all references) on ${pct(all.agreement[0] ?? NaN)} (\`${all.name}\`) and ${pct(long.agreement[1] ?? NaN)} (\`${long.name}\`). `
    + 'No held-out figure is published yet.';
}

/** The block written into docs/grading.md. */
export function renderAgreement(t: AgreementTable): string {
  const judged = t.slices[0]?.size ?? 0;
  const best = (i: number): number => Math.max(...t.rows.map((r) => r.agreement[i] ?? 0));
  const cell = (x: number, i: number): string => (x === best(i) ? `**${pct(x)}**` : pct(x));
  return [
    `Data: EVOUNA TriviaQA (\`EVOUNA/TQ.json\`), ${t.questions} questions; left out: ${t.excluded.improper} questions the `
      + `annotators flagged \`improper\` and ${t.excluded.unjudged} answers without a judgment. That leaves ${judged} judged `
      + `answers of five QA systems, ${t.slices[0]?.humanCorrect ?? 0} of them judged correct.`,
    '',
    headline(t),
    '',
    'Agreement with the human judgment (share of answers where the grader\'s pass/fail equals the human\'s correct/incorrect), '
      + 'by answer length (words of the raw answer) and by QA system, best per column in bold; then, over all answers, '
      + 'how many wrong answers the grader passes and how many right ones it fails:',
    '',
    ...header(t, 'grader'),
    ...t.rows.map((r) => `| \`${r.name}\` | ${r.agreement.map(cell).join(' | ')} | ${errorCells(r.errors)} |`),
    '',
    ...t.rows.map((r) => `- \`${r.name}\`: ${r.rule}`),
    '',
    `Answers \`contains (normalized)\` passes and \`reference\` fails: ${t.containsNotReference}.`,
    '',
    `\`reference\` at other thresholds (the share of content words a reference of three or more needs; default ${t.defaultThreshold}):`,
    '',
    ...header(t, 'threshold'),
    ...t.sweep.map((s) => {
      const threshold = s.threshold === t.defaultThreshold ? `**${s.threshold}**` : String(s.threshold);
      return `| ${threshold} | ${s.agreement.map(pct).join(' | ')} | ${errorCells(s.errors)} |`;
    }),
    '',
    'Command: `npm run bench:agreement -- --file <path to TQ.json> --write-docs`',
  ].join('\n');
}
