/**
 * What a dataset row's label is about. Every place that computes a row's label key goes through here (the ask
 * activity of a run, `sitechat grade`, import), so a label given once is found again by all of them.
 */
import type { DatasetRow } from '../domain/dataset';
import { parseReferences } from '../grading/references';
import type { LabelSubject } from './key';

/** The fields of a row a label depends on besides the question. */
export type LabelledFields = Pick<DatasetRow, 'expected' | 'include_any' | 'must_include' | 'rubric'>;

/** What the ask activity needs, besides the site and the question it sends, to find a row's label. */
export interface LabelLookup {
  references: string[];
  rubric?: string;
}

/**
 * Every reference the row's graders compare against: the `expected` cell split as graders split it (`a|b`), then
 * `include_any`, then `must_include`. (`labelKey` sorts them, so this order does not matter for matching.)
 */
export function labelReferences(row: LabelledFields): string[] {
  return [...parseReferences(row.expected ?? ''), ...(row.include_any ?? []), ...(row.must_include ?? [])];
}

/** The lookup of a row, as the workflow passes it to the ask activity. Pure: no Node APIs (workflow code uses it). */
export function labelLookupOf(row: LabelledFields): LabelLookup {
  return { references: labelReferences(row), ...(row.rubric ? { rubric: row.rubric } : {}) };
}

/** The label subject of a row of `siteId` answered with `answer`. */
export function labelSubjectOf(siteId: string, row: Pick<DatasetRow, 'question'> & LabelledFields, answer: string): LabelSubject {
  return { siteId, question: row.question, ...labelLookupOf(row), answer };
}
