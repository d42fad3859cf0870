/**
 * How every report shows a row settled by a person's label: "decided by a person" with who, when and the note, beside
 * what the graders said (their own verdicts stay visible, named as theirs). One wording for report.md, report.html and
 * junit.xml; the review page (src/review/pageAssets.ts) writes the same words in its script.
 */
import type { AssertionResult, GradeVerdict } from '../domain/grade';
import { DecidedBy, Outcome, type GraderDecision, type RowResult } from '../domain/results';

/** The words that mark a row a person settled, in every report and on the review page. */
export const DECIDED_BY_A_PERSON = 'decided by a person';

/** A row's settlement by a person, as the reports show it. */
export interface PersonView {
  verdict: GradeVerdict;
  /** Who labelled it; absent when the label names nobody (an import without `by`). */
  by?: string;
  /** When, as "2026-11-28 10:04 UTC"; absent in rows settled before the label's time was kept. */
  when?: string;
  note?: string;
  /**
   * Rows settled before who and the note were kept apart: the decision's reason ("label by ana: the note"), shown
   * instead of them.
   */
  reason?: string;
}

/** The person's decision of a row settled by a label, or undefined for any other row. */
export function personView(row: Pick<RowResult, 'decision'>): PersonView | undefined {
  const d = row.decision;
  if (d?.by !== DecidedBy.label) return undefined;
  if (!d.label) return { verdict: d.verdict, reason: d.reason };
  const { by, at, note } = d.label;
  return { verdict: d.verdict, ...(by && { by }), ...(at && { when: formatWhen(at) }), ...(note && { note }) };
}

/** An ISO time to the minute, in UTC ("2026-11-28 10:04 UTC"); text that is no time is kept as it is. */
export function formatWhen(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m && iso.endsWith('Z') ? `${m[1]} ${m[2]} UTC` : iso;
}

/** "by ana", or who the label does not name. */
export function whoText(p: PersonView): string {
  return p.by ? `by ${p.by}` : 'by a person the label does not name';
}

/** Who and when: "by ana · 2026-11-28 10:04 UTC"; for a row settled before these were kept, its reason. */
export function personFacts(p: PersonView): string {
  return p.reason ?? [whoText(p), p.when].filter(Boolean).join(' · ');
}

/**
 * "fail · by ana · 2026-11-28 10:04 UTC · note: not in the source" (a row settled before these were kept: "fail (label
 * by ana: not in the source)").
 */
export function personText(p: PersonView): string {
  if (p.reason !== undefined) return `${p.verdict} (${p.reason})`;
  return `${p.verdict} · ${personFacts(p)} · ${p.note === undefined ? 'no note' : `note: ${p.note}`}`;
}

/** One line: "decided by a person: fail · by ana · 2026-11-28 10:04 UTC · note: not in the source". */
export function personLine(p: PersonView): string {
  return `${DECIDED_BY_A_PERSON}: ${personText(p)}`;
}

/** What the graders of a labelled row said, as the reports show it beside the person's decision. */
export interface GradersView {
  /** Their verdict; absent when no grader ran (the label settled the row first). */
  verdict?: GradeVerdict;
  /** The graders, or the judge the graders' uncertain row went to. */
  by?: typeof DecidedBy.graders | typeof DecidedBy.judge;
  reason?: string;
  /** Whether the person's label overruled them or agrees with them; absent when no grader ran. */
  relation?: 'overruled' | 'agrees';
  /** Each assertion the row was graded by (empty when no grader ran). */
  assertions: readonly AssertionResult[];
}

const VERDICT_OF_OUTCOME: Partial<Record<Outcome, GradeVerdict>> = { passed: 'pass', failed: 'fail', uncertain: 'uncertain' };

/**
 * The graders' view of a labelled row: their decision as kept (`decision.graders`), else the outcome the row had before
 * the label (`decision.was`) with its assertions, else what the assertions say. No assertion and nothing kept: no
 * grader ran, because a run or `sitechat grade` found the label before grading.
 */
export function gradersView(row: Pick<RowResult, 'decision' | 'assertions'>, person: GradeVerdict | undefined = row.decision?.verdict): GradersView {
  const assertions = row.assertions ?? [];
  // A row a label did not settle (the review page shows a label of its key) is still its graders' own.
  const kept: GraderDecision | undefined = row.decision?.by === DecidedBy.label ? row.decision.graders : row.decision;
  const verdict = kept?.verdict
    ?? (assertions.length > 0 ? ((row.decision?.was && VERDICT_OF_OUTCOME[row.decision.was]) ?? verdictOfAssertions(assertions)) : undefined);
  if (verdict === undefined) return { assertions };
  const by = kept?.by === DecidedBy.judge ? DecidedBy.judge : DecidedBy.graders;
  const reason = kept?.reason ?? firstReason(assertions, verdict);
  return { verdict, by, ...(reason && { reason }), ...(person && { relation: person === verdict ? 'agrees' : 'overruled' }), assertions };
}

function verdictOfAssertions(assertions: readonly AssertionResult[]): GradeVerdict {
  if (assertions.some((a) => !a.pass && !a.uncertain)) return 'fail';
  return assertions.some((a) => a.uncertain) ? 'uncertain' : 'pass';
}

function firstReason(assertions: readonly AssertionResult[], verdict: GradeVerdict): string | undefined {
  const deciding = verdict === 'fail' ? assertions.find((a) => !a.pass && !a.uncertain) : verdict === 'uncertain' ? assertions.find((a) => a.uncertain) : undefined;
  return deciding && `${deciding.type}: ${deciding.reason}`;
}

/** "graders said fail (overruled by the person)", "the judge said pass (the person agrees)", or that no grader ran. */
export function gradersHead(g: GradersView): string {
  if (g.verdict === undefined) return 'graders not run: the label settled the row before them';
  const who = g.by === DecidedBy.judge ? 'the judge' : 'graders';
  const relation = g.relation === 'overruled' ? ' (overruled by the person)' : g.relation === 'agrees' ? ' (the person agrees)' : '';
  return `${who} said ${g.verdict}${relation}`;
}

/** `gradersHead` with the deciding reason: "graders said fail (overruled by the person): contains: missing "5 days"". */
export function gradersLine(g: GradersView): string {
  return `${gradersHead(g)}${g.verdict !== undefined && g.reason ? `: ${g.reason}` : ''}`;
}

/** Sentence case, for a line that starts a paragraph or a heading. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A row a label failed, as a test failure's message: "failed by a label: not in the source (by ana, 2026-11-28 10:04
 * UTC)", "failed by a label (by ana, …)" without a note, "failed by a label (label by ana: …)" for older rows.
 */
export function labelFailureMessage(p: PersonView): string {
  if (p.reason !== undefined) return `failed by a label (${p.reason})`;
  return `failed by a label${p.note === undefined ? '' : `: ${p.note}`} (${personFacts(p)})`;
}
