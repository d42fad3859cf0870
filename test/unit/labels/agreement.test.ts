import { describe, expect, it } from 'vitest';
import { formatAgreement } from '../../../src/cli/commands/labels/agreement';
import { labelAgreement, MIN_LABELS, referenceVerdict, type LabelledAnswer } from '../../../src/labels/agreement';

const capital = 'What is the capital of France?';
const refund = 'How long is the refund window?';
const support = 'Which plan includes priority support?';
const storage = 'How much storage is free?';

/** Eight labelled answers; the comment is each grader's verdict, worked out by hand from the grader's rules. */
const items: LabelledAnswer[] = [
  // A: contains the reference: every grader passes but f1 (one word of seven).
  { question: capital, references: ['Paris'], answer: 'The capital of France is Paris.', verdict: 'pass', judge: 'pass' },
  // B: another name where the reference is a name: reference fails on evidence.
  { question: capital, references: ['Paris'], answer: 'The capital of France is Lyon.', verdict: 'fail' },
  // C: a refusal.
  { question: capital, references: ['Paris'], answer: "I'm sorry, I don't know.", verdict: 'fail' },
  // D: a conflicting number.
  { question: refund, references: ['14 days'], answer: 'You can ask for a refund within 30 days.', verdict: 'fail' },
  // E: the reference's words in the answer.
  { question: refund, references: ['14 days'], answer: 'Refunds are possible within 14 days of purchase.', verdict: 'pass' },
  // F: half the reference's content words: passes at 0.4 and 0.5, uncertain from 0.6; f1 passes.
  { question: support, references: ['the Business plan with annual billing'], answer: 'Priority support comes with the Business plan.', verdict: 'pass', judge: 'pass' },
  // G: nothing of the reference: every lexical grader fails it, the person passed it (a false fail), the judge too.
  { question: support, references: ['the Business plan with annual billing'], answer: 'Priority support is available on selected plans.', verdict: 'pass', judge: 'fail' },
  // H: nothing in common.
  { question: storage, references: ['five gigabytes shared with the household'], answer: 'Every account starts with some free space.', verdict: 'fail', judge: 'fail' },
];

describe('labelAgreement', () => {
  it('grades each answer as worked out by hand', () => {
    const at = (t: number): string[] => items.map((i) => referenceVerdict(i, t));
    expect(at(0.5)).toEqual(['pass', 'fail', 'fail', 'fail', 'pass', 'pass', 'fail', 'fail']);
    expect(at(0.6)).toEqual(['pass', 'fail', 'fail', 'fail', 'pass', 'uncertain', 'fail', 'fail']);
  });

  it('computes agreement, coverage and the supported threshold as counted by hand', () => {
    const report = labelAgreement(items);
    expect(report).toMatchObject({ labelled: 8, passLabels: 4, failLabels: 4, coverageFloor: 0.7, defaultThreshold: 0.6 });
    const by = new Map(report.graders.map((g) => [g.grader, g]));
    // 0.4 and 0.5 decide all 8; only G disagrees.
    for (const t of [0.4, 0.5]) {
      expect(by.get(`reference @ ${t}`)).toMatchObject({ rows: 8, decided: 8, coverage: 1, agreeing: 7, agreement: 7 / 8, agreementTwoWay: 7 / 8, falseFails: 1, falsePasses: 0, uncertain: 0 });
    }
    // From 0.6, F is uncertain: 7 decided, 6 agree; two-way (uncertain = fail) F is wrong too.
    for (const t of [0.6, 0.7, 0.8, 1]) {
      expect(by.get(`reference @ ${t}`)).toMatchObject({ rows: 8, decided: 7, coverage: 7 / 8, agreeing: 6, agreement: 6 / 7, agreementTwoWay: 6 / 8, falseFails: 1, uncertain: 1 });
    }
    // contains passes A and E only: F and G are false fails.
    expect(by.get('contains (normalized)')).toMatchObject({ kind: 'two-way', rows: 8, decided: 8, coverage: 1, agreeing: 6, agreement: 6 / 8, falseFails: 2, falsePasses: 0 });
    // f1 passes F only: A, E and G are false fails.
    expect(by.get('f1')).toMatchObject({ decided: 8, agreeing: 5, agreement: 5 / 8, falseFails: 3, falsePasses: 0 });
    // The judge has verdicts for A, F, G and H; G disagrees.
    expect(by.get('judge')).toMatchObject({ kind: 'judge', rows: 8, decided: 4, coverage: 0.5, agreeing: 3, agreement: 3 / 4, falseFails: 1 });
    // 0.4 and 0.5 tie on agreement and coverage: the one nearer the default wins.
    expect(report.supported).toEqual({ threshold: 0.5, agreement: 7 / 8, coverage: 1 });
  });

  it('recommends no threshold when none decides the coverage floor, and skips rows without references', () => {
    const unsure = { question: support, references: ['the Business plan with annual billing'], answer: 'Priority support comes with the Business plan.', verdict: 'pass' as const };
    const rubricOnly = { question: 'Is the tone friendly?', references: [], answer: 'Sure thing!', verdict: 'pass' as const, judge: 'pass' as const };
    const report = labelAgreement([unsure, unsure, { ...items[1]!, references: ['Paris'] }, rubricOnly]);
    expect(report.graders.find((g) => g.grader === 'reference @ 0.6')).toMatchObject({ rows: 3, decided: 1, coverage: 1 / 3 });
    expect(report.graders.find((g) => g.grader === 'reference @ 0.5')).toMatchObject({ rows: 3, decided: 3, agreement: 1 });
    expect(report.supported).toEqual({ threshold: 0.5, agreement: 1, coverage: 1 });
    // One word of the reference in common: uncertain at every threshold, so none decides 70 % of these rows.
    const vague = { ...unsure, answer: 'Business customers get it.' };
    const none = labelAgreement([vague, vague, items[1]!]);
    expect(none.graders.find((g) => g.grader === 'reference @ 0.4')).toMatchObject({ rows: 3, decided: 1, coverage: 1 / 3 });
    expect(none.supported).toBeNull();
    expect(labelAgreement([]).graders.every((g) => g.agreement === null && g.coverage === null)).toBe(true);
  });
});

describe('agreement on few labels', () => {
  const two: LabelledAnswer[] = [items[0]!, items[1]!].map((i) => ({ ...i, judge: undefined }));

  it('says how many more labels it needs, and shows no judge row when no judge ran', () => {
    const report = labelAgreement(two);
    expect(report).toMatchObject({ labelled: 2, wanted: MIN_LABELS, moreNeeded: MIN_LABELS - 2 });
    expect(report.graders.find((g) => g.grader === 'judge')).toBeUndefined();
    const text = formatAgreement(report);
    expect(text[0]).toContain(`label ${MIN_LABELS - 2} more`);
    expect(text.some((l) => l.startsWith('judge'))).toBe(false);
    const best = report.supported;
    expect(best).toBeDefined();
    expect(text.at(-1)).toBe(
      `on these 2 labels, reference threshold ${best?.threshold} agrees best: agreement ${best?.agreement.toFixed(3)} deciding ${((best?.coverage ?? 0) * 100).toFixed(1)}% of the labelled rows (default ${report.defaultThreshold})`,
    );
    // With enough labels, nothing more is asked for, and a judge that gave verdicts has its row.
    const enough = labelAgreement(Array.from({ length: MIN_LABELS }, (_, i) => items[i % items.length]!));
    expect(enough.moreNeeded).toBe(0);
    expect(enough.graders.find((g) => g.grader === 'judge')).toBeDefined();
    expect(formatAgreement(enough)[0]).not.toMatch(/more/);
    expect(formatAgreement(enough).at(-1)).toMatch(/^the labels support reference threshold/);
  });

  it('leaves out the graders that could grade none of the labels (rubric-only labels)', () => {
    const rubricOnly = { question: 'Is the tone friendly?', references: [], answer: 'Sure thing!', verdict: 'pass' as const };
    const text = formatAgreement(labelAgreement([rubricOnly]));
    expect(text.some((l) => /^reference @/.test(l))).toBe(false);
    expect(text[1]).toMatch(/^no grader could grade these labels/);
  });
});
