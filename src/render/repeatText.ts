/** The words every report uses for a run with repeats (Markdown, HTML and the CLI summary build on these). */
import { pct } from '../analysis/gate';
import { plural } from '../shared/plural';
import type { Confirmation, ConfirmingAnswer, RepeatSummary } from '../domain/results';

/** "66.7% (95% CI 44.1–83.6%, 17.3 independent answers' worth over 10 rows)" */
export function repeatRateText(r: RepeatSummary): string {
  const p = r.passRate;
  if (!p) return 'n/a (no graded answer)';
  return `${pct(p.value)} of ${p.answers} answers (95% CI ${pct(p.low)}–${pct(p.high)}, counted over ${plural(p.rows, 'row')}: worth ${p.effectiveN.toFixed(1)} independent answers)`;
}

/** "6 all passed, 2 flaky, 2 all failed" */
export function repeatRowsText(r: RepeatSummary): string {
  const ungraded = r.ungraded > 0 ? `, ${r.ungraded} without a graded answer` : '';
  return `${plural(r.rows, 'row')} asked ${plural(r.n, 'time')}: ${r.allPassed} all passed, ${r.flaky} flaky (their answers disagree), ${r.allFailed} all failed${ungraded}`;
}

/** Rows by k of n, most passes first: [["3/3", 6], ["1/3", 2], …]. */
export function kOfNEntries(r: RepeatSummary): [string, number][] {
  const value = (key: string): number => {
    const [k, n] = key.split('/').map(Number);
    return (k ?? 0) / (n || 1);
  };
  return Object.entries(r.kOfN).sort((a, b) => value(b[0]) - value(a[0]) || b[0].localeCompare(a[0]));
}

/** What `--confirm` asked and found, one line; the answers are listed by the renderers. */
export function confirmationText(c: Confirmation): string {
  const asked = `${plural(c.rows, 'regressed row')} asked ${plural(c.k, 'more time')} each in fresh sessions (${plural(c.questions, 'question')})`;
  const found = `${c.reproduced.length} reproduced (most confirming answers failed too) and still ${c.reproduced.length === 1 ? 'counts' : 'count'}, ${c.notReproduced.length} did not and ${c.notReproduced.length === 1 ? 'is' : 'are'} taken as noise`;
  const left = c.unconfirmed?.length ?? 0;
  if (left === 0) return `${asked}: ${found}`;
  const why = c.undecided ? 'they could still change the verdict' : 'not needed: the verdict was decided without them';
  const counts = left === 1 ? 'counts as its first answer says' : 'count as their first answers say';
  return `${asked}: ${found}; ${left} not asked again (${why}) ${counts}`;
}

/** "c1 failed: …" for each confirming answer of a row. */
export function confirmingAnswerLines(answers: readonly ConfirmingAnswer[], maxText: number): string[] {
  return answers.map((a) => `confirm ${a.confirm}, ${a.outcome}: ${(a.answer ?? '(no answer)').slice(0, maxText)}`);
}
