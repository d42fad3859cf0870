/**
 * Settling a row by a person's label: a run, `sitechat grade` and the review page write the same decision. Pure: no
 * Node APIs (workflow code uses it).
 */
import { DecidedBy, Outcome, type GradeDecision, type PersonLabel, type RowResult } from '../domain/results';
import { LabelVerdict, type LabelMatch } from '../domain/label';

/** "label by ana: not in the source", "label by ana", "label: not in the source" or "label". */
export function labelReason(label: Pick<LabelMatch, 'by' | 'note'>): string {
  return `label${label.by ? ` by ${label.by}` : ''}${label.note ? `: ${label.note}` : ''}`;
}

/** Who gave the label, when and why: the fields the reports show (only those the label has). */
export function personLabelOf(label: Pick<LabelMatch, 'by' | 'at' | 'note'>): PersonLabel {
  return { ...(label.by ? { by: label.by } : {}), ...(label.at ? { at: label.at } : {}), ...(label.note ? { note: label.note } : {}) };
}

/** The decision of a row settled by `label`. */
export function labelDecision(label: LabelMatch): GradeDecision {
  return { verdict: label.verdict, by: DecidedBy.label, reason: labelReason(label), label: personLabelOf(label) };
}

/**
 * The answered row settled by its label: passed or failed with the label's decision, and no grader ran (a label is
 * a settled grade; the judge is not asked).
 */
export function labelledResult(answered: RowResult, label: LabelMatch): RowResult {
  const outcome = label.verdict === LabelVerdict.pass ? Outcome.passed : Outcome.failed;
  return { ...answered, outcome, decision: labelDecision(label), labelKey: label.key };
}

/** The feedback a label earns: a settled grade, so `good` or `bad` as the graders' would be. */
export function feedbackForLabel(label: LabelMatch): 'good' | 'bad' {
  return label.verdict === LabelVerdict.pass ? 'good' : 'bad';
}
