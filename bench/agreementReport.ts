/** Markdown for the agreement bench: one table per grader, one threshold sweep of `reference`. */
import type { Excluded, JudgedAnswer } from './agreementData';

/** A subset of the judged answers the tables break agreement down by. */
export interface Slice {
  name: string;
  answers: readonly JudgedAnswer[];
}

/** Everything the report shows; agreements are listed in slice order. */
export interface AgreementTable {
  questions: number;
  excluded: Excluded;
  slices: { name: string; size: number; humanCorrect: number }[];
  rows: { name: string; rule: string; agreement: number[] }[];
  sweep: { threshold: number; agreement: number[] }[];
  defaultThreshold: number;
}

const pct = (x: number): string => (Number.isNaN(x) ? '–' : x.toFixed(3));

function header(t: AgreementTable, first: string): string[] {
  return [
    `| ${first} | ${t.slices.map((s) => `${s.name} (n=${s.size})`).join(' | ')} |`,
    `|---|${t.slices.map(() => '---:').join('|')}|`,
  ];
}

/** The block written into BENCHMARKS.md and docs/grading.md. */
export function renderAgreement(t: AgreementTable): string {
  const judged = t.slices[0]?.size ?? 0;
  const best = (i: number): number => Math.max(...t.rows.map((r) => r.agreement[i] ?? 0));
  const cell = (x: number, i: number): string => (x === best(i) ? `**${pct(x)}**` : pct(x));
  return [
    `Data: EVOUNA TriviaQA (\`EVOUNA/TQ.json\`), ${t.questions} questions; ${t.excluded.improper} flagged \`improper\` and `
      + `${t.excluded.unjudged} answers without a judgment left out: ${judged} judged answers of five QA systems `
      + `(${t.slices.map((s) => `${s.name}: ${s.humanCorrect} judged correct`).slice(0, 1).join('')}).`,
    '',
    'Agreement with the human judgment (share of answers where the grader\'s pass/fail equals the human\'s correct/incorrect), '
      + 'by answer length and by QA system; best per column in bold:',
    '',
    ...header(t, 'grader'),
    ...t.rows.map((r) => `| \`${r.name}\` | ${r.agreement.map(cell).join(' | ')} |`),
    '',
    ...t.rows.map((r) => `- \`${r.name}\`: ${r.rule}`),
    '',
    `\`reference\` at other thresholds (the share of content words a reference of three or more needs; default ${t.defaultThreshold}):`,
    '',
    ...header(t, 'threshold'),
    ...t.sweep.map((s) => `| ${s.threshold === t.defaultThreshold ? `**${s.threshold}**` : s.threshold} | ${s.agreement.map(pct).join(' | ')} |`),
    '',
    'Command: `npm run bench:agreement -- --file <path to TQ.json> --write-docs`',
  ].join('\n');
}
