/**
 * The three-way `reference` grader on the judged answers: how often its decided grades (pass or fail) agree with
 * the humans, and what share it decides (coverage), for long answers (> 5 words) and all answers; then the curve of
 * agreement against coverage as the band between pass and fail is moved: the pass threshold, the share of the
 * reference's words an answer may share and still count as "nothing in common", and which kinds of evidence count.
 */
import {
  DEFAULT_THRESHOLDS, evaluateAssertion, FAIL_EVIDENCE, failEvidence, parseReferences, type EvidenceOptions, type FailEvidence,
} from '../src/grading';
import { wordCount, type JudgedAnswer } from './agreementData';

/** What the three-way grader says of one answer. */
type Verdict = 'pass' | 'fail' | 'uncertain';

/** One setting of the band. */
export interface BandSetting extends EvidenceOptions {
  /** The `reference` threshold (share of content words a longer reference needs to pass). */
  threshold: number;
}

/** Agreement of the decided answers, and the share decided, on one slice. */
export interface Decided {
  /** Decided answers whose verdict equals the human judgment / decided answers. */
  agreement: number;
  /** Decided answers / all answers of the slice. */
  coverage: number;
  decided: number;
  size: number;
}

/** One point of the curve. */
export interface CurvePoint {
  label: string;
  isDefault: boolean;
  long: Decided;
  all: Decided;
}

/** The default band: what the grader does (`evaluateAssertion`). */
export const DEFAULT_BAND: BandSetting = { threshold: DEFAULT_THRESHOLDS.reference, maxShared: 0, rules: FAIL_EVIDENCE };

/** The three-way verdict at a band setting: the `reference` pass rules, then the evidence of a fail. */
export function verdictAt(a: JudgedAnswer, band: BandSetting): Verdict {
  const result = evaluateAssertion({ type: 'reference', threshold: band.threshold }, { expected: a.expected, question: a.text }, { answer: a.answer });
  if (result.pass) return 'pass';
  return failEvidence(a.answer, parseReferences(a.expected), a.text, band) ? 'fail' : 'uncertain';
}

/** The grader's own verdict (what a run records): must equal {@link verdictAt} at the default band. */
export function gradersVerdict(a: JudgedAnswer): Verdict {
  const result = evaluateAssertion({ type: 'reference' }, { expected: a.expected, question: a.text }, { answer: a.answer });
  return result.pass ? 'pass' : result.uncertain ? 'uncertain' : 'fail';
}

function decided(answers: readonly JudgedAnswer[], verdicts: ReadonlyMap<JudgedAnswer, Verdict>): Decided {
  let count = 0;
  let agreeing = 0;
  for (const a of answers) {
    const v = verdicts.get(a);
    if (v === undefined || v === 'uncertain') continue;
    count += 1;
    if ((v === 'pass') === a.correct) agreeing += 1;
  }
  return { agreement: count === 0 ? Number.NaN : agreeing / count, coverage: answers.length === 0 ? Number.NaN : count / answers.length, decided: count, size: answers.length };
}

function point(label: string, answers: readonly JudgedAnswer[], band: BandSetting, isDefault: boolean): CurvePoint {
  const verdicts = new Map(answers.map((a) => [a, verdictAt(a, band)]));
  const long = answers.filter((a) => wordCount(a.answer) > 5);
  return { label, isDefault, long: decided(long, verdicts), all: decided(answers, verdicts) };
}

/** Everything the three-way part of the report shows. */
export interface ThreeWayTable {
  /** The grader as it runs, per slice (all, > 5 words, <= 5 words). */
  slices: { name: string; result: Decided; uncertainCorrect: number; uncertain: number }[];
  /** Decided fails by kind of evidence: how many, and how many of them the humans judged incorrect. */
  byEvidence: { evidence: FailEvidence; fails: number; agreeing: number }[];
  curve: CurvePoint[];
}

const CUMULATIVE: readonly (readonly FailEvidence[])[] = FAIL_EVIDENCE.map((_, i) => FAIL_EVIDENCE.slice(0, i + 1));
const THRESHOLDS = [0.4, 0.5, 0.6, 0.7, 0.8, 1] as const;
const MAX_SHARED = [0, 0.2, 1 / 3, 0.5] as const;

/** Measures the grader's three-way verdicts and traces the curve; throws when the grader and the bench disagree. */
export function measureThreeWay(answers: readonly JudgedAnswer[]): ThreeWayTable {
  const own = new Map(answers.map((a) => [a, gradersVerdict(a)]));
  for (const a of answers) {
    if (verdictAt(a, DEFAULT_BAND) !== own.get(a)) throw new Error(`bench and grader disagree on question ${a.question} (${a.system}): the default band is not the grader's`);
  }
  const parts = [
    { name: 'all', answers },
    { name: '> 5 words', answers: answers.filter((a) => wordCount(a.answer) > 5) },
    { name: '<= 5 words', answers: answers.filter((a) => wordCount(a.answer) <= 5) },
  ];
  const slices = parts.map(({ name, answers: part }) => {
    const unsure = part.filter((a) => own.get(a) === 'uncertain');
    return { name, result: decided(part, own), uncertain: unsure.length, uncertainCorrect: unsure.filter((a) => a.correct).length };
  });
  const byEvidence = FAIL_EVIDENCE.map((evidence) => {
    const fails = answers.filter((a) => own.get(a) === 'fail' && failEvidence(a.answer, parseReferences(a.expected), a.text)?.evidence === evidence);
    return { evidence, fails: fails.length, agreeing: fails.filter((a) => !a.correct).length };
  });
  const curve: CurvePoint[] = [
    point('no evidence counts (fail = uncertain)', answers, { ...DEFAULT_BAND, rules: [] }, false),
    ...CUMULATIVE.map((rules) => point(`evidence: ${rules.join(', ')}`, answers, { ...DEFAULT_BAND, rules }, rules.length === FAIL_EVIDENCE.length)),
    ...MAX_SHARED.filter((m) => m > 0).map((m) => point(`"nothing in common" up to ${m.toFixed(2)} of the reference's words shared`, answers, { ...DEFAULT_BAND, maxShared: m }, false)),
    ...THRESHOLDS.filter((t) => t !== DEFAULT_BAND.threshold).map((t) => point(`pass threshold ${t}`, answers, { ...DEFAULT_BAND, threshold: t }, false)),
  ];
  return { slices, byEvidence, curve };
}

const f3 = (x: number): string => (Number.isNaN(x) ? '–' : x.toFixed(3));
const pct = (x: number): string => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)} %`);

/** The three-way part of the block written into docs/grading.md. */
export function renderThreeWay(t: ThreeWayTable): string {
  const byCoverage = [...t.curve].sort((x, y) => x.long.coverage - y.long.coverage);
  return [
    '#### Three-way `reference` on the development set: agreement of decided grades, and coverage',
    '',
    'The `reference` grader passes, fails on evidence, or is uncertain. Agreement here is over the answers it decides '
      + '(pass or fail); coverage is the share it decides. Uncertain answers go to the judge when one is configured, else '
      + 'to review; they are not in the pass rate.',
    '',
    '| answers | n | decided | coverage | agreement of decided | uncertain | of them judged correct |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...t.slices.map((s) => `| ${s.name} | ${s.result.size} | ${s.result.decided} | ${pct(s.result.coverage)} | ${f3(s.result.agreement)} | ${s.uncertain} | ${s.uncertainCorrect} |`),
    '',
    'Decided fails by evidence (all answers), and how many of them the humans judged incorrect:',
    '',
    '| evidence | fails | judged incorrect | precision |',
    '|---|---:|---:|---:|',
    ...t.byEvidence.map((e) => `| ${e.evidence} | ${e.fails} | ${e.agreeing} | ${f3(e.fails === 0 ? Number.NaN : e.agreeing / e.fails)} |`),
    '',
    'Agreement against coverage as the band moves (one setting changed at a time from the default, in bold), by coverage '
      + 'of long answers:',
    '',
    '| setting | coverage > 5 words | agreement > 5 words | coverage all | agreement all |',
    '|---|---:|---:|---:|---:|',
    ...byCoverage.map((p) => {
      const label = p.isDefault ? `**${p.label} (default)**` : p.label;
      return `| ${label} | ${pct(p.long.coverage)} | ${f3(p.long.agreement)} | ${pct(p.all.coverage)} | ${f3(p.all.agreement)} |`;
    }),
  ].join('\n');
}
