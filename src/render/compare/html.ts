/**
 * compare.html: the same figures as compare.md, and every row with each variant's grade and answer side by side,
 * filterable to the rows where the variants disagree. One self-contained page; answers are untrusted text and are
 * escaped; the script is a constant (no data interpolated into code), under the reports' CSP.
 */
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY, REPORT_CSS } from '../htmlAssets';
import { pageScript, pageStyle } from '../../shared/pageAsset';
import { formatMs, truncate } from '../escape';
import { html, joinHtml, raw, type SafeHtml } from '../htmlTemplate';
import { gradedOf, intervalOf, pairsNote, pctOf } from './markdown';
import { formatP } from '../../analysis/stats';
import { labelBesideRun } from '../../analysis/compare/rows';
import type { Comparison, VariantStats } from '../../analysis/compare/types';
import { plural } from '../../shared/plural';

/** Rows on the page; a larger comparison says how many more are in compare.json. */
export const HTML_ROW_LIMIT = 5_000;
/** Characters of an answer shown in a cell. */
const ANSWER_CHARS = 1_500;

const COMPARE_CSS = pageStyle(join(__dirname, '..'), 'compare');

/** "Only rows where the variants disagree" and a text filter. Reads data-* attributes only. */
const COMPARE_SCRIPT = pageScript(join(__dirname, '..'), 'compare');

function statsRow(c: Comparison, i: number): SafeHtml {
  const v = c.variants[i];
  const s = c.stats[i] as VariantStats;
  if (!v) return html``;
  const conf = s.confidence ? `${s.confidence.mean.toFixed(1)} (${s.confidence.min}–${s.confidence.max})` : 'n/a';
  const tr = c.best === i ? html`<tr class="best">` : html`<tr>`;
  return html`${tr}<td>${labelBesideRun(v)}</td><td class="id">${v.runId}</td><td>${pctOf(s.passRate)}</td><td>${intervalOf(s)}</td>\
<td>${gradedOf(s)}</td><td>${s.uncertain}</td><td>${s.errors}</td><td>${s.missing}</td><td>${formatMs(s.latencyP50)}</td><td>${formatMs(s.latencyP95)}</td><td>${conf}</td></tr>`;
}

export function renderCompareHtml(c: Comparison): string {
  const shown = c.rows.slice(0, HTML_ROW_LIMIT);
  const parts: SafeHtml[] = [];
  const ignored = c.confirmationsIgnored > 0
    && html`<p class="note">${c.confirmationsIgnored} confirming answers (--confirm) left out: they were asked only for rows that regressed.</p>\n`;
  parts.push(html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>Comparison of ${c.variants.length} runs</title><style>${raw(REPORT_CSS)}${raw(COMPARE_CSS)}</style></head><body>
<h1>Comparison of ${c.variants.length} runs</h1>
<p class="meta">${plural(c.rows.length, 'row')}, ${c.pairedRows} graded by every run, ${c.unpairedRows} not paired · created ${c.createdAt}</p>
${ignored}<p class="conclusion" id="conclusion">${c.conclusion}</p>
<h2>Variants</h2>
<table id="variants"><thead><tr><th>variant</th><th>run</th><th>pass rate</th><th>95% CI</th><th>graded</th><th>needs review</th><th>errors</th><th>missing</th><th>latency p50</th><th>p95</th><th>confidence mean (min–max)</th></tr></thead><tbody>
${joinHtml(c.variants.map((_, i) => statsRow(c, i)), '\n')}
</tbody></table>
<h2>Pairs</h2>
<p class="note">${pairsNote(c)}</p>
<table id="pairs"><thead><tr><th>first</th><th>second</th><th>wins</th><th>ties</th><th>losses</th><th>p</th><th>Holm p</th><th>significant</th></tr></thead><tbody>
${joinHtml(c.pairs.map((p) => html`<tr><td>${c.variants[p.a]?.label ?? ''}</td><td>${c.variants[p.b]?.label ?? ''}</td><td>${p.wins}</td><td>${p.ties}</td><td>${p.losses}</td><td>${formatP(p.pValue)}</td><td>${formatP(p.adjustedP)}</td><td>${p.significant ? 'yes' : 'no'}</td></tr>`), '\n')}
</tbody></table>
<h2>Rows side by side</h2>
<div class="controls"><label><input type="checkbox" id="only-disagree"> only rows where the variants disagree</label>
<input type="search" id="filter" placeholder="filter by text" aria-label="filter rows by text"> <span><span id="shown">${shown.length}</span> shown</span></div>
`);
  parts.push(html`<table id="sbs" class="sbs"><thead><tr><th>row</th><th>question</th>${c.variants.map((v) => html`<th>${v.label}</th>`)}</tr></thead><tbody>\n`);
  for (const row of shown) {
    const cells = row.cells.map((cell) => {
      if (!cell) return html`<td class="cell"><span class="why">no result</span></td>`;
      const answer = cell.answer !== undefined && html`<pre>${truncate(cell.answer, ANSWER_CHARS)}</pre>`;
      const why = cell.reason && html`<div class="why">${truncate(cell.reason, 300)}</div>`;
      return html`<td class="cell"><b class="o-${cell.outcome}">${cell.outcome}</b>${answer}${why}</td>`;
    });
    const unpaired = row.unpaired && html`<div class="why">not paired: ${row.unpaired}</div>`;
    parts.push(html`<tr data-disagree="${String(row.disagree)}"${row.disagree && html` class="disagree"`}><td class="id">${row.id}</td><td>${row.question}${unpaired}</td>${cells}</tr>\n`);
  }
  parts.push(html`</tbody></table>\n`);
  if (c.rows.length > shown.length) parts.push(html`<p class="note">${c.rows.length - shown.length} more rows are in compare.json.</p>\n`);
  parts.push(html`<script>${raw(COMPARE_SCRIPT)}</script>\n</body></html>\n`);
  return html`${parts}`.value;
}
