/**
 * Agreement of the reference graders with human judgments (issue 9), on EVOUNA's TriviaQA file (the development
 * set): every system's answer is graded against the question's references with the runner's grading code and the
 * verdict compared with the human one; for the three-way `reference` (issue 20), agreement of its decided grades
 * and the share it decides, and the curve of the two as its band moves.
 *
 *   npm run bench:agreement -- --file TQ.json                 # print the tables
 *   npm run bench:agreement -- --file TQ.json --write-docs    # also replace the generated block of docs/grading.md
 *   npm run bench:agreement -- --file TQ.json --show 20       # also list 20 answers `reference` and the humans disagree on
 *
 * The data file is not part of the project: EVOUNA/TQ.json of the public repository wangcunxiang/QA-Eval.
 * Bad flags or an unreadable file exit 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS, evaluateAssertion } from '../src/grading';
import { projectRoot } from '../src/shared/projectRoot';
import { AgreementDataError, loadJudgedAnswers, SYSTEMS, wordCount, type JudgedAnswer } from './agreementData';
import { agreementGraders, GRADER_NAMES } from './agreementGraders';
import { renderAgreement, type AgreementTable, type Errors, type Slice } from './agreementReport';
import { measureThreeWay, renderThreeWay } from './agreementThreeWay';

const SWEEP = [0.4, 0.5, 0.6, 0.7, 0.8, 1] as const;

class UsageError extends Error {}

interface Args {
  file: string;
  writeDocs: boolean;
  show: number;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { file: '', writeDocs: false, show: 0 };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--write-docs') args.writeDocs = true;
    else if (flag === '--file') args.file = argv[++i] ?? '';
    else if (flag === '--show') {
      args.show = Number(argv[++i]);
      if (!Number.isInteger(args.show) || args.show < 0) throw new UsageError('--show: expected a whole number of answers');
    } else throw new UsageError(`unknown argument ${JSON.stringify(flag)} (known: --file <TQ.json>, --write-docs, --show <n>)`);
  }
  if (args.file === '') throw new UsageError('--file <path to EVOUNA TQ.json> is required');
  return args;
}

function slices(answers: readonly JudgedAnswer[]): Slice[] {
  return [
    { name: 'all', answers },
    { name: '> 5 words', answers: answers.filter((a) => wordCount(a.answer) > 5) },
    { name: '<= 5 words', answers: answers.filter((a) => wordCount(a.answer) <= 5) },
    ...SYSTEMS.map((system) => ({ name: system, answers: answers.filter((a) => a.system === system) })),
  ];
}

function agreement(slice: Slice, verdicts: ReadonlyMap<JudgedAnswer, boolean>): number {
  const agreeing = slice.answers.filter((a) => verdicts.get(a) === a.correct).length;
  return slice.answers.length === 0 ? Number.NaN : agreeing / slice.answers.length;
}

/** Over all answers: wrong answers the grader passes, right answers it fails. */
function errors(answers: readonly JudgedAnswer[], verdicts: ReadonlyMap<JudgedAnswer, boolean>): Errors {
  return {
    wrongPassed: answers.filter((a) => !a.correct && verdicts.get(a) === true).length,
    rightFailed: answers.filter((a) => a.correct && verdicts.get(a) === false).length,
  };
}

function verdictsOf(answers: readonly JudgedAnswer[], pass: (answer: string, expected: string) => boolean): Map<JudgedAnswer, boolean> {
  return new Map(answers.map((a) => [a, pass(a.answer, a.expected)]));
}

function showDisagreements(answers: readonly JudgedAnswer[], limit: number): string {
  const lines: string[] = [];
  for (const a of answers) {
    if (lines.length >= limit) break;
    const result = evaluateAssertion({ type: 'reference' }, { expected: a.expected, question: a.text }, { answer: a.answer });
    if (result.pass === a.correct || result.uncertain) continue;
    lines.push(
      `#${a.question} ${a.system} human=${a.correct} reference=${result.pass ? 'pass' : 'fail'}: ${a.text}\n  answer: ${a.answer.replace(/\s+/gu, ' ')}\n`
        + `  expected: ${a.expected.slice(0, 200)}\n  ${result.reason}`,
    );
  }
  return lines.join('\n');
}

function replaceBlock(path: string, block: string): void {
  const text = readFileSync(path, 'utf8');
  const start = '<!-- agreement:start -->';
  const end = '<!-- agreement:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${path} has no ${start} … ${end} block`);
  writeFileSync(path, `${text.slice(0, a + start.length)}\n${block}\n${text.slice(b)}`);
  process.stderr.write(`updated ${path}\n`);
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const { answers, questions, excluded } = loadJudgedAnswers(args.file);
  const parts = slices(answers);
  const graders = agreementGraders();
  const verdicts = new Map(graders.map((g) => [g.name, verdictsOf(answers, g.pass)]));
  const contains = verdicts.get(GRADER_NAMES.contains);
  const reference = verdicts.get(GRADER_NAMES.reference);
  const table: AgreementTable = {
    questions,
    excluded,
    slices: parts.map((s) => ({ name: s.name, size: s.answers.length, humanCorrect: s.answers.filter((a) => a.correct).length })),
    rows: graders.map((g) => {
      const own = verdicts.get(g.name) ?? new Map<JudgedAnswer, boolean>();
      return { name: g.name, rule: g.rule, agreement: parts.map((s) => agreement(s, own)), errors: errors(answers, own) };
    }),
    containsNotReference: answers.filter((a) => contains?.get(a) === true && reference?.get(a) === false).length,
    sweep: SWEEP.map((threshold) => {
      const grader = agreementGraders(threshold).find((g) => g.name === GRADER_NAMES.reference);
      const verdicts = verdictsOf(answers, grader?.pass ?? (() => false));
      return { threshold, agreement: parts.map((s) => agreement(s, verdicts)), errors: errors(answers, verdicts) };
    }),
    defaultThreshold: DEFAULT_THRESHOLDS.reference,
  };
  const markdown = `${renderAgreement(table)}\n\n${renderThreeWay(measureThreeWay(answers))}`;
  process.stdout.write(`${markdown}\n`);
  if (args.show > 0) process.stdout.write(`\nDecided grades of \`reference\` the humans disagree with:\n${showDisagreements(answers, args.show)}\n`);
  // One copy of the tables: BENCHMARKS.md links to it.
  if (args.writeDocs) replaceBlock(join(projectRoot(), 'docs', 'grading.md'), markdown);
}

try {
  main();
} catch (error) {
  const bad = error instanceof UsageError || error instanceof AgreementDataError;
  process.stderr.write(`bench:agreement: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = bad ? 2 : 1;
}
