import { baseIdOf } from '../datasets/repeat';
import type { AssertionResult } from '../domain/grade';
import { DetailSection, type PriorTurn, type ReportContext } from '../analysis/context';
import { moreLine, truncate } from './escape';
import { html, type SafeHtml } from './htmlTemplate';
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

function grades(assertions: readonly AssertionResult[] | undefined): SafeHtml {
  if (!assertions || assertions.length === 0) return html`<p class="note">no assertion (not graded)</p>`;
  const items = assertions.map((x) => {
    const rule = x.rule && html`<span class="rule">${truncate(x.rule, 400)}</span>`;
    const [cls, mark] = x.pass ? ['ok', '✓'] : x.uncertain ? ['unsure', '?'] : ['ko', '✗'];
    return html`<li class="${cls}"><b>${mark} ${x.type}</b> ${rule}<br>${truncate(x.reason, 600)}</li>`;
  });
  return html`<ul class="grades">${items}</ul>`;
}

function answerBlock(title: string, row: RowResult | undefined, maxText: number): SafeHtml {
  if (!row) return html`<div class="side"><h4>${title}</h4><p class="note">not in the baseline</p></div>`;
  const answer = row.answer === undefined ? html`<p class="note">(no answer)</p>` : html`<pre>${truncate(row.answer, maxText)}</pre>`;
  const error = row.error !== undefined && html`<p class="o-error">${row.errorType ?? 'Error'}: ${truncate(row.error, 600)}</p>`;
  const person = personView(row);
  const by = person && ` · ${DECIDED_BY_A_PERSON}`;
  const graded = person ? html`${personBlock(person)}${gradersBlock(row)}` : grades(row.assertions);
  return html`<div class="side"><h4>${title} · <span class="o-${row.outcome}">${row.outcome}</span>${by}</h4>${answer}${error}${graded}</div>`;
}

/** The person's decision of a labelled row: who, when, the note. */
function personBlock(p: PersonView): SafeHtml {
  const facts = personFacts(p);
  const note = p.reason !== undefined ? '' : p.note === undefined ? html`<p class="note">no note</p>` : html`<p class="person-note">${truncate(p.note, 2000)}</p>`;
  return html`<div class="person ${p.verdict}"><b>${capitalized(DECIDED_BY_A_PERSON)}: ${p.verdict}</b> <span class="who">${facts}</span>${note}</div>`;
}

/** What the graders of a labelled row said, named as theirs, with their assertions; or that none ran. */
function gradersBlock(row: RowResult): SafeHtml {
  const g = gradersView(row);
  const head = html`<p class="graders-said">${capitalized(gradersHead(g))}</p>`;
  return g.verdict === undefined ? head : html`${head}${grades(g.assertions)}`;
}

function priorTurns(turns: readonly PriorTurn[] | undefined, maxText: number): SafeHtml {
  if (!turns || turns.length === 0) return html``;
  const items = turns.map(
    (t) => html`<li><b>${t.turn === undefined ? t.id : `turn ${t.turn}`}</b> <span class="o-${t.outcome}">${t.outcome}</span><br><i>Q:</i> ${truncate(t.question, 400)}<br><i>A:</i> ${truncate(t.answer ?? '(no answer)', Math.min(600, maxText))}</li>`,
  );
  return html`<details class="turns" open><summary>Earlier turns of this conversation (${turns.length})</summary><ol>${items}</ol></details>`;
}

function card(row: RowResult, section: DetailSection, context: ReportContext, baselineRunId: string, maxText: number): SafeHtml {
  const tags = row.tags?.length ? ` · ${row.tags.join(', ')}` : '';
  const head = html`<h3><span class="id">${row.id}</span> · line ${row.line}${tags}</h3><p class="q"><b>Q:</b> ${truncate(row.question, 800)}</p>`;
  const compare = section === DetailSection.regressed || section === DetailSection.fixed;
  const body = compare
    ? html`<div class="compare">${answerBlock('Now', row, maxText)}${answerBlock(`Baseline ${baselineRunId}`, context.baselineRows.get(baseIdOf(row)), maxText)}</div>`
    : answerBlock('Answer', row, maxText);
  const expected = row.expected !== undefined && html`<p class="expected"><b>Expected:</b> ${truncate(row.expected, maxText)}</p>`;
  return html`<article class="review ${section}" id="row-${row.id}">${head}${priorTurns(context.priorTurns.get(row.id), maxText)}${body}${expected}</article>\n`;
}

/** "Rows to review": regressed and fixed rows beside the baseline's answer, failures and errors with their grades. */
export function reviewSections(context: ReportContext, baselineRunId: string, maxText: number): SafeHtml {
  const parts: SafeHtml[] = [];
  for (const { section, title, note } of REVIEW) {
    const { rows, total } = context.details[section];
    if (total === 0) continue;
    parts.push(html`<h2 id="${section}">${title} (${total}) <span class="note">${note}</span></h2>\n`);
    // Errors many rows share are one line each ("66 rows: the API refused the key …"); a card only for an error of its own.
    const groups = section === DetailSection.errored ? context.errorGroups : [];
    if (groups.length > 0) parts.push(html`<ul class="error-groups">${groups.map((g) => html`<li>${truncate(groupLine(g), 1500)}</li>`)}</ul>\n`);
    const { own, hidden } = ownErrors(rows, total, groups);
    for (const row of own) parts.push(card(row, section, context, baselineRunId, maxText));
    if (hidden > 0) parts.push(html`<p class="note">${moreLine(hidden, 'row', ' not shown here (all are in the table below and in results.jsonl)')}</p>\n`);
  }
  return html`${parts}`;
}

/** Lost feedback and sessions left open, with the API's reasons. */
export function sideEffectSections(context: ReportContext): SafeHtml {
  const { lostFeedback, sessionFailures } = context;
  const feedback = lostFeedback.total > 0 && html`<h2>Feedback not recorded (${lostFeedback.total})</h2><ul>${
    lostFeedback.rows.map((r) => html`<li><span class="id">${r.id}</span> (request ${r.requestId ?? 'n/a'}): ${truncate(r.feedbackError ?? r.error ?? 'no reason recorded', 400)}</li>`)}${
    lostFeedback.total > lostFeedback.rows.length && html`<li>${moreLine(lostFeedback.total - lostFeedback.rows.length, 'row')}</li>`}</ul>\n`;
  const sessions = sessionFailures.total > 0 && html`<h2>Sessions left open (${sessionFailures.total})</h2><p class="note">Closing these failed; <code>sitechat cleanup</code> can close them later.</p><ul>${
    sessionFailures.items.map((f) => html`<li>session <span class="id">${f.sessionId}</span>: ${truncate(f.error, 400)}</li>`)}${
    sessionFailures.total > sessionFailures.items.length && html`<li>${moreLine(sessionFailures.total - sessionFailures.items.length, 'session')}</li>`}</ul>\n`;
  return html`${feedback}${sessions}`;
}
