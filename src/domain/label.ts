/**
 * A person's grade of one answer: the thing `sitechat review` and `sitechat labels import` write, and every later
 * run and `sitechat grade` of the same site applies before its graders and the judge ("settled by label").
 *
 * A label matches a row when the site, the question, the references (or rubric) and the normalized answer are the
 * same (`labelKey`), so a person is never asked the same question twice, and a changed answer is asked again.
 */
export interface Label {
  /** `labelKey(...)` of the fields below; the store's primary key (the last write of a key wins). */
  key: string;
  siteId: string;
  question: string;
  /** Every reference the row's graders compared against (`expected`, `include_any`, `must_include`), as given. */
  references: string[];
  rubric?: string;
  /** The answer as normalized for matching (`normalizeAnswerForLabel`), not the raw text. */
  answer: string;
  verdict: LabelVerdict;
  note?: string;
  /** Who labelled it (free text: a name, an email, a git author). */
  by?: string;
  /** ISO time the label was given. */
  at: string;
  /** Where it came from: the review page (with its run id), an import (with the file name). */
  source?: string;
}

export const LabelVerdict = { pass: 'pass', fail: 'fail' } as const;
export type LabelVerdict = (typeof LabelVerdict)[keyof typeof LabelVerdict];

/** Which labels `readLabels` returns; every given field must match. */
export interface LabelFilter {
  siteId?: string;
}

/**
 * What a run needs of a matching label to settle a row with it (the ask activity returns it with the answer). `at` is
 * optional: ask results recorded in histories before it was passed on have none.
 */
export type LabelMatch = Pick<Label, 'key' | 'verdict' | 'note' | 'by'> & Partial<Pick<Label, 'at'>>;
