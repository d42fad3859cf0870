/**
 * The label subject of a recorded row: what `sitechat review` writes and what a later run must compute the same way
 * to find the label again. References are the row's `expected` cell split as graders split it.
 */
import { parseReferences } from '../grading/references';
import type { RowResult } from '../domain/results';
import { labelKey, normalizeAnswerForLabel, type LabelSubject } from './key';
import type { Label, LabelVerdict } from '../domain/label';

export function labelSubjectOfRow(siteId: string, row: Pick<RowResult, 'question' | 'expected' | 'answer'>): LabelSubject {
  return { siteId, question: row.question, references: parseReferences(row.expected ?? ''), answer: row.answer ?? '' };
}

/**
 * The key a run recorded with the row (it knew the dataset row's `include_any`, `must_include` and rubric), else the
 * key of what the row itself carries (rows of runs before labels).
 */
export function rowLabelKey(siteId: string, row: Pick<RowResult, 'question' | 'expected' | 'answer' | 'labelKey'>): string {
  return row.labelKey ?? labelKey(labelSubjectOfRow(siteId, row));
}

export interface LabelGiven {
  verdict: LabelVerdict;
  note?: string;
  by?: string;
  /** ISO time. */
  at: string;
  source?: string;
}

/** The label of a row as a person gave it. */
export function labelForRow(siteId: string, row: Pick<RowResult, 'question' | 'expected' | 'answer' | 'labelKey'>, given: LabelGiven): Label {
  const subject = labelSubjectOfRow(siteId, row);
  return {
    key: rowLabelKey(siteId, row),
    siteId,
    question: subject.question,
    references: [...subject.references],
    answer: normalizeAnswerForLabel(subject.answer),
    verdict: given.verdict,
    at: given.at,
    ...(given.note ? { note: given.note } : {}),
    ...(given.by ? { by: given.by } : {}),
    ...(given.source ? { source: given.source } : {}),
  };
}
