/**
 * Rows against the demo knowledge base that the `reference` grader decides three ways: `pass` gives the reference's
 * answer, `fail` shares nothing with its reference (decided), and the two `unsure` rows share a word and the right
 * number with theirs but not enough to pass, and contradict nothing: the grader is uncertain about them. The
 * escalation, labels-first and review tests build on exactly these outcomes.
 */
export const GRADED_HEADER = 'id,question,expected';

export const GRADED_ROWS = {
  pass: 'pass,How much does the Personal plan cost?,$9.99 per month',
  fail: 'fail,Which payment methods do you accept?,Only gold bars delivered by courier',
  unsure1: 'unsure1,How much storage do I get for free?,"Five gigabytes, shared with your whole household"',
  unsure2: 'unsure2,Can I get a refund for my annual subscription?,"Yes, within fourteen days, through the cancellation wizard of the billing portal"',
} as const;
