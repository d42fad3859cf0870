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

/** The block written into BENCHMARKS.md and docs/grading.md. */
export function renderAgreement(t: AgreementTable): string {
  const judged = t.slices[0]?.size ?? 0;
  const best = (i: number): number => Math.max(...t.rows.map((r) => r.agreement[i] ?? 0));
  const cell = (x: number, i: number): string => (x === best(i) ? `**${pct(x)}**` : pct(x));
  return [
    `Data: EVOUNA TriviaQA (\`EVOUNA/TQ.json\`), ${t.questions} questions; left out: ${t.excluded.improper} questions the `
      + `annotators flagged \`improper\` and ${t.excluded.unjudged} answers without a judgment. That leaves ${judged} judged `
      + `answers of five QA systems, ${t.slices[0]?.humanCorrect ?? 0} of them judged correct.`,
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
