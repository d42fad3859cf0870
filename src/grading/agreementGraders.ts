/**
 * The graders whose agreement with human judgments is measured — by the EVOUNA bench (`npm run bench:agreement`) and
 * by `sitechat labels agreement` on a team's own labels — each through the runner's own grading code
 * (`evaluateAssertion` from src/grading) except the "contains" baseline, which is a plain normalized
 * substring test over `squadTokens` (the runner has no such assertion: it is the usual lexical-match
 * baseline of QA evaluation).
 */
import { DEFAULT_THRESHOLDS, evaluateAssertion } from './grade';
import { squadTokens } from './normalize';
import { parseReferences } from './references';
import type { BuiltinAssertionSpec } from '../domain/grade';

/** Names of the graders the bench refers to. */
export const GRADER_NAMES = { contains: 'contains (normalized)', reference: 'reference' } as const;

/** A named verdict function: does the answer pass against the `expected` value? */
export interface AgreementGrader {
  name: string;
  /** One line for the docs. */
  rule: string;
  pass: (answer: string, expected: string) => boolean;
}

function assertion(spec: BuiltinAssertionSpec): (answer: string, expected: string) => boolean {
  return (answer, expected) => evaluateAssertion(spec, { expected }, { answer }).pass;
}

/** Some reference, SQuAD-normalized, is a run of whole words of the normalized answer. */
export function normalizedContains(answer: string, expected: string): boolean {
  const haystack = ` ${squadTokens(answer).join(' ')} `;
  return parseReferences(expected).some((reference) => {
    const needle = squadTokens(reference).join(' ');
    return needle.length > 0 && haystack.includes(` ${needle} `);
  });
}

/** The graders of the table, old default first. `threshold` applies to `reference`. */
export function agreementGraders(referenceThreshold?: number): AgreementGrader[] {
  const reference: BuiltinAssertionSpec = referenceThreshold === undefined ? { type: 'reference' } : { type: 'reference', threshold: referenceThreshold };
  return [
    {
      name: 'f1, first reference (old default)',
      rule: 'token F1 >= 0.5 against the first reference only',
      pass: (answer, expected) => assertion({ type: 'f1' })(answer, parseReferences(expected)[0]?.replace(/\|/gu, '\\|') ?? ''),
    },
    { name: 'f1', rule: 'token F1 >= 0.5, best over the references', pass: assertion({ type: 'f1' }) },
    { name: 'rouge-l', rule: 'ROUGE-L F >= 0.4, best over the references', pass: assertion({ type: 'rouge-l' }) },
    { name: 'levenshtein', rule: 'Levenshtein similarity >= 0.8, best over the references', pass: assertion({ type: 'levenshtein' }) },
    {
      name: 'contains-any',
      rule: 'some reference is a substring of the answer, ignoring case (the `include_any` column)',
      pass: (answer, expected) => evaluateAssertion({ type: 'contains-any', values: parseReferences(expected) }, {}, { answer }).pass,
    },
    { name: GRADER_NAMES.contains, rule: 'some reference, SQuAD-normalized, is a run of whole words of the normalized answer', pass: normalizedContains },
    { name: GRADER_NAMES.reference, rule: `the \`reference\` grader (threshold ${referenceThreshold ?? DEFAULT_THRESHOLDS.reference})`, pass: assertion(reference) },
  ];
}
