/**
 * How well each grader agrees with a team's labels: the figures of `sitechat labels agreement`, and of the review
 * page. The graders are the runner's own (`agreementGraders`, the set the EVOUNA bench measures), so a team sees on
 * its own data what the bench shows on public data.
 *
 * - `reference` is three-way: at each threshold, agreement is over the rows it decides (pass or fail) and coverage is
 *   the share it decides; uncertain rows would go to the judge or to review. `agreementTwoWay` counts uncertain as
 *   fail (two-way grading).
 * - The other lexical graders decide every row (coverage 1).
 * - The judge: the verdicts it gave (recorded on the run's rows, or in the judge cache); its coverage is the share of
 *   labelled rows that have one.
 *
 * The threshold the labels support is the `reference` threshold with the best agreement among those that decide at
 * least `COVERAGE_FLOOR` of the labelled rows (ties: the higher coverage, then the one nearer the default).
 */
import { agreementGraders, GRADER_NAMES } from '../grading/agreementGraders';
import { DEFAULT_THRESHOLDS, evaluateAssertion } from '../grading/grade';
import { formatReferences } from '../grading/references';
import { LabelVerdict } from '../domain/label';

/** One labelled answer: what the graders see, and the person's verdict. */
export interface LabelledAnswer {
  question: string;
  /** The references the label was given against (empty for a rubric-only row: lexical graders skip it). */
  references: readonly string[];
  answer: string;
  verdict: LabelVerdict;
  /** The judge's verdict of the same answer, where one was recorded or cached. */
  judge?: 'pass' | 'fail';
}

/** Thresholds of `reference` measured; the default (0.6) is among them. */
export const REFERENCE_THRESHOLDS: readonly number[] = [0.4, 0.5, 0.6, 0.7, 0.8, 1];

/**
 * A threshold is only recommended when it decides at least this share of the labelled rows: the target for
 * long answers (decide ≥ 70 % of them), so a threshold cannot win by deciding only the easy rows.
 */
export const COVERAGE_FLOOR = 0.7;

/**
 * Labels wanted before the figures are worth going by: with 30, an agreement of 0.8 has a 95 % interval of about ±0.15
 * (Wilson), narrow enough to tell a grader that agrees from one that does not; with fewer, one label moves it by 3 points
 * or more.
 */
export const MIN_LABELS = 30;

export const AgreementKind = { threeWay: 'three-way', twoWay: 'two-way', judge: 'judge' } as const;
export type AgreementKind = (typeof AgreementKind)[keyof typeof AgreementKind];

export interface GraderAgreement {
  grader: string;
  rule: string;
  kind: AgreementKind;
  /** For `reference`: the threshold. */
  threshold?: number;
  /** Labelled rows this grader could grade (lexical graders need references; the judge's are all of them). */
  rows: number;
  /** Rows it decided (pass or fail). */
  decided: number;
  /** decided / rows; null without rows. */
  coverage: number | null;
  /** Decided rows whose verdict equals the label. */
  agreeing: number;
  /** agreeing / decided; null when nothing was decided. */
  agreement: number | null;
  /** Three-way graders: agreement over all rows with uncertain counted as fail. */
  agreementTwoWay?: number | null;
  /** Decided `fail` where the label says pass (wrong `bad` feedback). */
  falseFails: number;
  /** Decided `pass` where the label says fail. */
  falsePasses: number;
  /** Three-way graders: rows left uncertain. */
  uncertain?: number;
}

export interface AgreementReport {
  /** Labelled rows measured. */
  labelled: number;
  /** Labels wanted before the figures are worth going by ({@link MIN_LABELS}), and how many more that is (0 when there are enough). */
  wanted: number;
  moreNeeded: number;
  passLabels: number;
  failLabels: number;
  graders: GraderAgreement[];
  coverageFloor: number;
  defaultThreshold: number;
  /**
   * The `reference` threshold the labels support, or null when none decides `coverageFloor` of the rows. With fewer
   * labels than `wanted`, only what these few say.
   */
  supported: { threshold: number; agreement: number; coverage: number } | null;
}

type Verdict = 'pass' | 'fail' | 'uncertain';

interface Tally {
  rows: number;
  decided: number;
  agreeing: number;
  agreeingTwoWay: number;
  falseFails: number;
  falsePasses: number;
  uncertain: number;
}

const emptyTally = (): Tally => ({ rows: 0, decided: 0, agreeing: 0, agreeingTwoWay: 0, falseFails: 0, falsePasses: 0, uncertain: 0 });

function count(tally: Tally, verdict: Verdict, label: LabelVerdict): void {
  tally.rows += 1;
  if ((verdict === 'pass') === (label === LabelVerdict.pass)) tally.agreeingTwoWay += 1;
  if (verdict === 'uncertain') {
    tally.uncertain += 1;
    return;
  }
  tally.decided += 1;
  if (verdict === label) tally.agreeing += 1;
  else if (verdict === 'fail') tally.falseFails += 1;
  else tally.falsePasses += 1;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

function figures(grader: string, rule: string, kind: AgreementKind, t: Tally, threshold?: number): GraderAgreement {
  const base: GraderAgreement = {
    grader, rule, kind, rows: t.rows, decided: t.decided, coverage: ratio(t.decided, t.rows), agreeing: t.agreeing,
    agreement: ratio(t.agreeing, t.decided), falseFails: t.falseFails, falsePasses: t.falsePasses,
  };
  if (threshold !== undefined) base.threshold = threshold;
  if (kind === AgreementKind.threeWay) Object.assign(base, { agreementTwoWay: ratio(t.agreeingTwoWay, t.rows), uncertain: t.uncertain });
  return base;
}

/** The three-way verdict of `reference` at `threshold`, as a run would grade the answer. */
export function referenceVerdict(item: Pick<LabelledAnswer, 'question' | 'references' | 'answer'>, threshold: number): Verdict {
  const result = evaluateAssertion({ type: 'reference', threshold }, { expected: formatReferences(item.references), question: item.question }, { answer: item.answer });
  return result.pass ? 'pass' : result.uncertain ? 'uncertain' : 'fail';
}

/** Every grader's agreement with the labels of `items`. */
export function labelAgreement(items: Iterable<LabelledAnswer>): AgreementReport {
  // Two-way graders of the bench, less `reference` (measured three-way here) and the bench's "old default".
  const twoWay = agreementGraders().filter((g) => g.name !== GRADER_NAMES.reference && !g.name.includes('old default'));
  const reference = REFERENCE_THRESHOLDS.map(() => emptyTally());
  const lexical = twoWay.map(() => emptyTally());
  const judge = emptyTally();
  let labelled = 0;
  let passLabels = 0;
  for (const item of items) {
    labelled += 1;
    if (item.verdict === LabelVerdict.pass) passLabels += 1;
    // The judge covers the rows it has a verdict for: its coverage is over every labelled row.
    count(judge, item.judge ?? 'uncertain', item.verdict);
    if (item.references.length === 0) continue;
    REFERENCE_THRESHOLDS.forEach((t, i) => count(reference[i] as Tally, referenceVerdict(item, t), item.verdict));
    const expected = formatReferences(item.references);
    twoWay.forEach((g, i) => count(lexical[i] as Tally, g.pass(item.answer, expected) ? 'pass' : 'fail', item.verdict));
  }
  const graders = [
    ...REFERENCE_THRESHOLDS.map((t, i) => figures(`reference @ ${t}`, `the \`reference\` grader at threshold ${t}${t === DEFAULT_THRESHOLDS.reference ? ' (default)' : ''}`, AgreementKind.threeWay, reference[i] as Tally, t)),
    ...twoWay.map((g, i) => figures(g.name, g.rule, AgreementKind.twoWay, lexical[i] as Tally)),
    // No verdict of the judge on any labelled row: no judge ran, and a row of dashes would say nothing.
    ...(judge.decided > 0 ? [figures('judge', "the judge's verdicts recorded on the run's rows or in the judge cache", AgreementKind.judge, judge)] : []),
  ];
  return {
    labelled, wanted: MIN_LABELS, moreNeeded: Math.max(0, MIN_LABELS - labelled), passLabels, failLabels: labelled - passLabels, graders, coverageFloor: COVERAGE_FLOOR,
    defaultThreshold: DEFAULT_THRESHOLDS.reference, supported: supportedThreshold(graders),
  };
}

/** The best-agreeing `reference` threshold among those deciding at least `COVERAGE_FLOOR` of the rows. */
function supportedThreshold(graders: readonly GraderAgreement[]): AgreementReport['supported'] {
  const candidates = graders.filter((g) => g.kind === AgreementKind.threeWay && g.agreement !== null && (g.coverage ?? 0) >= COVERAGE_FLOOR);
  const nearDefault = (g: GraderAgreement): number => Math.abs((g.threshold ?? 0) - DEFAULT_THRESHOLDS.reference);
  const best = candidates.sort((a, b) => (b.agreement ?? 0) - (a.agreement ?? 0) || (b.coverage ?? 0) - (a.coverage ?? 0) || nearDefault(a) - nearDefault(b))[0];
  return best ? { threshold: best.threshold as number, agreement: best.agreement as number, coverage: best.coverage as number } : null;
}
