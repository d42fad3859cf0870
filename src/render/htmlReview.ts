import { baseIdOf } from '../datasets/repeat';
import type { AssertionResult } from '../domain/grade';
import { DetailSection, type PriorTurn, type ReportContext } from '../analysis/context';
import { escapeHtml as h, escapeHtmlAttr as a, moreLine, truncate } from './escape';
import { groupLine, ownErrors } from '../analysis/errorGroups';
import { capitalized, DECIDED_BY_A_PERSON, gradersHead, gradersView, personFacts, personView, type PersonView } from './labelView';
import type { RowResult } from '../domain/results';

/** Sections of "Rows to review", in reading order. */
const REVIEW: { section: DetailSection; title: string; note: string }[] = [
  { section: DetailSection.regressed, title: 'Regressions', note: 'passed in the baseline, fail now' },
  { section: DetailSection.fixed, title: 'Fixed', note: 'failed in the baseline, pass now' },
  { section: DetailSection.failed, title: 'Failures', note: 'with the rules they were graded by' },
  { section: DetailSection.uncertain, title: 'Needs review', note: 'uncertain: the graders could not decide and nothing settled the grade' },
  { section: DetailSection.errored, title: 'Errors and time-outs', note: 'no answer to grade' },
  { section: DetailSection.passedByPerson, title: 'Passed by a person', note: 'a label settled them; what the graders said is beside each' },
];

function grades(assertions: readonly AssertionResult[] | undefined): string {
  if (!assertions || assertions.length === 0) return '<p class="note">no assertion (not graded)</p>';
  const items = assertions.map((x) => {
    const rule = x.rule ? `<span class="rule">${h(truncate(x.rule, 400))}</span>` : '';
    const [cls, mark] = x.pass ? ['ok', '✓'] : x.uncertain ? ['unsure', '?'] : ['ko', '✗'];
    return `<li class="${cls}"><b>${mark} ${h(x.type)}</b> ${rule}<br>${h(truncate(x.reason, 600))}</li>`;
  });
  return `<ul class="grades">${items.join('')}</ul>`;
}

function answerBlock(title: string, row: RowResult | undefined, maxText: number): string {
  if (!row) return `<div class="side"><h4>${h(title)}</h4><p class="note">not in the baseline</p></div>`;
  const answer = row.answer === undefined ? '<p class="note">(no answer)</p>' : `<pre>${h(truncate(row.answer, maxText))}</pre>`;
  const error = row.error === undefined ? '' : `<p class="o-error">${h(row.errorType ?? 'Error')}: ${h(truncate(row.error, 600))}</p>`;
  const person = personView(row);
  const by = person ? ` · ${h(DECIDED_BY_A_PERSON)}` : '';
  const graded = person ? `${personBlock(person)}${gradersBlock(row)}` : grades(row.assertions);
  return `<div class="side"><h4>${h(title)} · <span class="o-${a(row.outcome)}">${h(row.outcome)}</span>${by}</h4>${answer}${error}${graded}</div>`;
}

/** The person's decision of a labelled row: who, when, the note. */
function personBlock(p: PersonView): string {
  const facts = personFacts(p);
  const note = p.reason !== undefined ? '' : p.note === undefined ? '<p class="note">no note</p>' : `<p class="person-note">${h(truncate(p.note, 2000))}</p>`;
  return `<div class="person ${a(p.verdict)}"><b>${h(capitalized(DECIDED_BY_A_PERSON))}: ${h(p.verdict)}</b> <span class="who">${h(facts)}</span>${note}</div>`;
}

/** What the graders of a labelled row said, named as theirs, with their assertions; or that none ran. */
function gradersBlock(row: RowResult): string {
  const g = gradersView(row);
  const head = `<p class="graders-said">${h(capitalized(gradersHead(g)))}</p>`;
  return g.verdict === undefined ? head : `${head}${grades(g.assertions)}`;
}

function priorTurns(turns: readonly PriorTurn[] | undefined, maxText: number): string {
  if (!turns || turns.length === 0) return '';
  const items = turns.map(
    (t) => `<li><b>${h(t.turn === undefined ? t.id : `turn ${t.turn}`)}</b> <span class="o-${a(t.outcome)}">${h(t.outcome)}</span><br><i>Q:</i> ${h(truncate(t.question, 400))}<br><i>A:</i> ${h(truncate(t.answer ?? '(no answer)', Math.min(600, maxText)))}</li>`,
  );
  return `<details class="turns" open><summary>Earlier turns of this conversation (${turns.length})</summary><ol>${items.join('')}</ol></details>`;
}

function card(row: RowResult, section: DetailSection, context: ReportContext, baselineRunId: string, maxText: number): string {
  const tags = row.tags?.length ? ` · ${h(row.tags.join(', '))}` : '';
  const head = `<h3><span class="id">${h(row.id)}</span> · line ${row.line}${tags}</h3><p class="q"><b>Q:</b> ${h(truncate(row.question, 800))}</p>`;
  const compare = section === DetailSection.regressed || section === DetailSection.fixed;
  const body = compare
    ? `<div class="compare">${answerBlock('Now', row, maxText)}${answerBlock(`Baseline ${baselineRunId}`, context.baselineRows.get(baseIdOf(row)), maxText)}</div>`
    : answerBlock('Answer', row, maxText);
  const expected = row.expected === undefined ? '' : `<p class="expected"><b>Expected:</b> ${h(truncate(row.expected, maxText))}</p>`;
  return `<article class="review ${a(section)}" id="row-${a(row.id)}">${head}${priorTurns(context.priorTurns.get(row.id), maxText)}${body}${expected}</article>\n`;
}

/** "Rows to review": regressed and fixed rows beside the baseline's answer, failures and errors with their grades. */
export function reviewSections(context: ReportContext, baselineRunId: string, maxText: number): string {
  const parts: string[] = [];
  for (const { section, title, note } of REVIEW) {
    const { rows, total } = context.details[section];
    if (total === 0) continue;
    parts.push(`<h2 id="${a(section)}">${h(title)} (${total}) <span class="note">${h(note)}</span></h2>\n`);
    // Errors many rows share are one line each ("66 rows: the API refused the key …"); a card only for an error of its own.
    const groups = section === DetailSection.errored ? context.errorGroups : [];
    if (groups.length > 0) parts.push(`<ul class="error-groups">${groups.map((g) => `<li>${h(truncate(groupLine(g), 1500))}</li>`).join('')}</ul>\n`);
    const { own, hidden } = ownErrors(rows, total, groups);
    for (const row of own) parts.push(card(row, section, context, baselineRunId, maxText));
    if (hidden > 0) parts.push(`<p class="note">${h(moreLine(hidden, 'row', ' not shown here (all are in the table below and in results.jsonl)'))}</p>\n`);
  }
  return parts.join('');
}

/** Lost feedback and sessions left open, with the API's reasons. */
export function sideEffectSections(context: ReportContext): string {
  const parts: string[] = [];
  const { lostFeedback, sessionFailures } = context;
  if (lostFeedback.total > 0) {
    const items = lostFeedback.rows.map((r) => `<li><span class="id">${h(r.id)}</span> (request ${h(r.requestId ?? 'n/a')}): ${h(truncate(r.feedbackError ?? r.error ?? 'no reason recorded', 400))}</li>`);
    const more = lostFeedback.total > lostFeedback.rows.length ? `<li>${h(moreLine(lostFeedback.total - lostFeedback.rows.length, 'row'))}</li>` : '';
    parts.push(`<h2>Feedback not recorded (${lostFeedback.total})</h2><ul>${items.join('')}${more}</ul>\n`);
  }
  if (sessionFailures.total > 0) {
    const items = sessionFailures.items.map((f) => `<li>session <span class="id">${h(f.sessionId)}</span>: ${h(truncate(f.error, 400))}</li>`);
    const more = sessionFailures.total > sessionFailures.items.length ? `<li>${h(moreLine(sessionFailures.total - sessionFailures.items.length, 'session'))}</li>` : '';
    parts.push(`<h2>Sessions left open (${sessionFailures.total})</h2><p class="note">Closing these failed; <code>sitechat cleanup</code> can close them later.</p><ul>${items.join('')}${more}</ul>\n`);
  }
  return parts.join('');
}
