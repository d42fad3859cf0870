import { confirmationText, confirmingAnswerLines, kOfNEntries, repeatRateText, repeatRowsText } from './repeatText';
import { truncate } from './escape';
import { html, type SafeHtml } from './htmlTemplate';
import type { Confirmation, RunSummary } from '../domain/results';

/** The HTML report's section for a run with repeats: rows by k of N and the flaky rows with each answer. */
export function repeatsSection(s: RunSummary, maxText: number): SafeHtml {
  const r = s.repeats;
  if (!r) return html``;
  const counts = kOfNEntries(r).map(([k, n]) => html`<tr><td>${k}</td><td>${n}</td></tr>`);
  const flaky = r.flakyRows.map((f) => {
    const answers = f.answers.map((x) => html`<li><b>repeat ${x.repeat}, ${x.outcome}</b>: ${truncate(x.answer ?? '(no answer)', maxText)}</li>`);
    return html`<article class="review"><h3><span class="id">${f.id}</span> — ${f.passed} of ${f.graded} passed</h3><p>${truncate(f.question, maxText)}</p><ul>${answers}</ul></article>`;
  });
  const more = r.flaky > r.flakyRows.length && html`<p class="note">… ${r.flaky - r.flakyRows.length} more flaky rows; every answer is in results.jsonl.</p>`;
  return html`<h2>Repeats (${r.n} answers per row)</h2><section class="repeats"><p>${repeatRowsText(r)}.</p><p>Pass rate ${repeatRateText(r)}.</p>
<table><thead><tr><th>row passed</th><th data-num>rows</th></tr></thead><tbody>${counts}</tbody></table>${r.flakyRows.length > 0 && html`<h3>Flaky rows (${r.flaky})</h3>${flaky}${more}`}</section>\n`;
}

/** `--confirm`: what was asked again, and each row's confirming answers. */
export function confirmationHtml(c: Confirmation): SafeHtml {
  const reproduced = new Set(c.reproduced);
  const rows = c.answers.map((row) => html`<li><span class="id">${row.id}</span> (${reproduced.has(row.id) ? 'reproduced' : 'not reproduced'})<ul>${
    confirmingAnswerLines(row.answers, 600).map((line) => html`<li>${line}</li>`)}</ul></li>`);
  return html`<p><b>Confirmed before alarm</b> (--confirm ${c.k}): ${confirmationText(c)}.</p><ul class="confirmation">${rows}</ul>`;
}
