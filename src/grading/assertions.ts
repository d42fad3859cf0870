/**
 * Derives a row's assertions from its dataset columns and the run config's defaults. Pure.
 *
 * | column             | assertion                                              |
 * |--------------------|--------------------------------------------------------|
 * | `expected`         | `reference` (see reference.ts; `\|` separates answers) |
 * | `must_include`     | `contains-all` (ignoring case)                         |
 * | `include_any`      | `contains-any` (ignoring case)                         |
 * | `must_not_include` | `not-contains` (ignoring case)                         |
 * | `regex`            | `regex` (`pattern` or `/pattern/flags`)                |
 * | `min_confidence`   | `min-confidence`                                       |
 * | `rubric`           | `llm-rubric` (an LLM judge checks the criteria)        |
 *
 * Defaults that compare with the reference answer (`reference`, `f1`, `rouge-l`, `levenshtein`
 * without a `value`) decide how `expected` is graded: when the config has any, `expected` adds no
 * `reference` of its own, and on rows without `expected` they are left out (nothing to compare with). A row's
 * `min_confidence` replaces a default `min-confidence`. `llm-correctness` compares with `expected` too.
 * A default `llm-rubric` without `value` takes the row's `rubric` (rows without one leave it out), so a
 * row's `rubric` never adds a second `llm-rubric` next to it.
 *
 * Given run `thresholds`, reference-based specs without a `threshold` get the run's one baked in, so
 * the specs grade the same wherever they travel (workflow payloads, `gradeAnswer` without thresholds).
 */
import type { DatasetRow } from '../domain/dataset';
import { parseRegexLiteral } from './regex';
import type { AssertionSpec, GradingThresholds } from '../domain/grade';

/** Columns of the row that produce assertions, in the order of the table above. */
export const ASSERTION_COLUMNS = ['expected', 'must_include', 'include_any', 'must_not_include', 'regex', 'min_confidence', 'rubric'] as const;

/** Columns of the row that produce assertions. */
export type RowAssertionColumns = Pick<DatasetRow, (typeof ASSERTION_COLUMNS)[number]>;

/** The assertions for one row: derived from its columns first, then the applicable defaults. */
export function assertionsForRow(
  row: RowAssertionColumns,
  defaults: readonly AssertionSpec[] = [],
  thresholds: GradingThresholds = {},
): AssertionSpec[] {
  const specs: AssertionSpec[] = [];
  if (row.expected !== undefined && !defaults.some(comparesWithExpected)) specs.push({ type: 'reference' });
  if (row.must_include?.length) specs.push({ type: 'contains-all', values: [...row.must_include] });
  if (row.include_any?.length) specs.push({ type: 'contains-any', values: [...row.include_any] });
  if (row.must_not_include?.length) specs.push({ type: 'not-contains', values: [...row.must_not_include] });
  if (row.regex !== undefined) specs.push({ type: 'regex', ...parseRegexLiteral(row.regex) });
  if (row.min_confidence !== undefined) specs.push({ type: 'min-confidence', threshold: row.min_confidence });
  if (row.rubric !== undefined && !defaults.some(usesRowRubric)) specs.push({ type: 'llm-rubric' });
  for (const spec of defaults) {
    if (comparesWithExpected(spec) && row.expected === undefined) continue;
    if (usesRowRubric(spec) && row.rubric === undefined) continue;
    if (spec.type === 'min-confidence' && row.min_confidence !== undefined) continue;
    specs.push(spec);
  }
  return specs.map((spec) => withThreshold(spec, thresholds));
}

/** Assertion types that compare the answer with a reference answer (`expected` or `value`). */
export const REFERENCE_BASED_TYPES = ['reference', 'f1', 'rouge-l', 'levenshtein'] as const;
type ReferenceBasedSpec = Extract<AssertionSpec, { type: (typeof REFERENCE_BASED_TYPES)[number] }>;

const THRESHOLD_KEYS = { reference: 'reference', f1: 'f1', 'rouge-l': 'rougeL', levenshtein: 'levenshtein' } as const satisfies Record<
  ReferenceBasedSpec['type'],
  keyof GradingThresholds
>;

function isReferenceBased(spec: AssertionSpec): spec is ReferenceBasedSpec {
  return (REFERENCE_BASED_TYPES as readonly string[]).includes(spec.type);
}

/** A reference-based spec without its own `value`: it grades against the row's `expected`. */
export function comparesWithExpected(spec: AssertionSpec): boolean {
  if (spec.type === 'llm-correctness') return true;
  return isReferenceBased(spec) && spec.value === undefined;
}

/** An `llm-rubric` without its own `value`: its criteria are the row's `rubric`. */
export function usesRowRubric(spec: AssertionSpec): boolean {
  return spec.type === 'llm-rubric' && spec.value === undefined;
}

function withThreshold(spec: AssertionSpec, thresholds: GradingThresholds): AssertionSpec {
  if (!isReferenceBased(spec)) return spec;
  const threshold = spec.threshold ?? thresholds[THRESHOLD_KEYS[spec.type]];
  return threshold === undefined || threshold === spec.threshold ? spec : { ...spec, threshold };
}
