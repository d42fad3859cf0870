import { confirmationText, confirmingAnswerLines, kOfNEntries, repeatRateText, repeatRowsText } from './repeatText';
import { escapeHtml as h, truncate } from './escape';
import type { Confirmation, RunSummary } from '../domain/results';

/** The HTML report's section for a run with repeats: rows by k of N and the flaky rows with each answer. */
export function repeatsSection(s: RunSummary, maxText: number): string {
  const r = s.repeats;
  if (!r) return '';
  const counts = kOfNEntries(r).map(([k, n]) => `<tr><td>${h(k)}</td><td>${n}</td></tr>`).join('');
  const flaky = r.flakyRows.map((f) => {
    const answers = f.answers.map((x) => `<li><b>repeat ${x.repeat}, ${h(x.outcome)}</b>: ${h(truncate(x.answer ?? '(no answer)', maxText))}</li>`).join('');
    return `<article class="review"><h3><span class="id">${h(f.id)}</span> — ${f.passed} of ${f.graded} passed</h3><p>${h(truncate(f.question, maxText))}</p><ul>${answers}</ul></article>`;
  }).join('');
  const more = r.flaky > r.flakyRows.length ? `<p class="note">… ${r.flaky - r.flakyRows.length} more flaky rows; every answer is in results.jsonl.</p>` : '';
  return `<h2>Repeats (${r.n} answers per row)</h2><section class="repeats"><p>${h(repeatRowsText(r))}.</p><p>Pass rate ${h(repeatRateText(r))}.</p>
<table><thead><tr><th>row passed</th><th data-num>rows</th></tr></thead><tbody>${counts}</tbody></table>${r.flakyRows.length > 0 ? `<h3>Flaky rows (${r.flaky})</h3>${flaky}${more}` : ''}</section>\n`;
}

/** `--confirm`: what was asked again, and each row's confirming answers. */
export function confirmationHtml(c: Confirmation): string {
  const reproduced = new Set(c.reproduced);
  const rows = c.answers.map((row) => `<li><span class="id">${h(row.id)}</span> (${reproduced.has(row.id) ? 'reproduced' : 'not reproduced'})<ul>${
    confirmingAnswerLines(row.answers, 600).map((line) => `<li>${h(line)}</li>`).join('')}</ul></li>`).join('');
  return `<p><b>Confirmed before alarm</b> (--confirm ${c.k}): ${h(confirmationText(c))}.</p><ul class="confirmation">${rows}</ul>`;
}
