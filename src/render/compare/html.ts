/**
 * compare.html: the same figures as compare.md, and every row with each variant's grade and answer side by side,
 * filterable to the rows where the variants disagree. One self-contained page; answers are untrusted text and are
 * escaped; the script is a constant (no data interpolated into code), under the reports' CSP.
 */
import { CONTENT_SECURITY_POLICY, REPORT_CSS } from '../htmlAssets';
import { escapeHtml as h, escapeHtmlAttr as a, formatMs, truncate } from '../escape';
import { gradedOf, intervalOf, pairsNote, pctOf } from './markdown';
import { formatP } from '../../analysis/stats';
import { labelBesideRun } from '../../analysis/compare/rows';
import type { Comparison, VariantStats } from '../../analysis/compare/types';
import { plural } from '../../shared/plural';

/** Rows on the page; a larger comparison says how many more are in compare.json. */
export const HTML_ROW_LIMIT = 5_000;
/** Characters of an answer shown in a cell. */
const ANSWER_CHARS = 1_500;

const COMPARE_CSS = `
.sbs td.cell { min-width: 16em; } .sbs td.cell pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0; font: 13px/1.4 system-ui, sans-serif; }
.sbs tr.disagree { background: #fff8c5; } .why { color: var(--muted); font-size: 12px; }
.conclusion { font-size: 16px; font-weight: 600; border-left: 6px solid #0969da; padding: 6px 12px; background: #f6f8fa; }
`;

/** "Only rows where the variants disagree" and a text filter. Reads data-* attributes only. */
const COMPARE_SCRIPT = `
(function () {
  var only = document.getElementById('only-disagree');
  var text = document.getElementById('filter');
  var count = document.getElementById('shown');
  function apply() {
    var q = text.value.toLowerCase();
    var n = 0;
    document.querySelectorAll('#sbs tbody tr').forEach(function (tr) {
      var show = (!only.checked || tr.dataset.disagree === 'true') && (!q || tr.textContent.toLowerCase().indexOf(q) >= 0);
      tr.hidden = !show;
      if (show) n++;
    });
    count.textContent = String(n);
  }
  only.addEventListener('change', apply);
  text.addEventListener('input', apply);
  apply();
})();
`;

function statsRow(c: Comparison, i: number): string {
  const v = c.variants[i];
  const s = c.stats[i] as VariantStats;
  if (!v) return '';
  const conf = s.confidence ? `${s.confidence.mean.toFixed(1)} (${s.confidence.min}–${s.confidence.max})` : 'n/a';
  return `<tr${c.best === i ? ' class="best"' : ''}><td>${h(labelBesideRun(v))}</td><td class="id">${h(v.runId)}</td><td>${h(pctOf(s.passRate))}</td><td>${h(intervalOf(s))}</td>`
    + `<td>${h(gradedOf(s))}</td><td>${s.uncertain}</td><td>${s.errors}</td><td>${s.missing}</td><td>${h(formatMs(s.latencyP50))}</td><td>${h(formatMs(s.latencyP95))}</td><td>${h(conf)}</td></tr>`;
}

export function renderCompareHtml(c: Comparison): string {
  const shown = c.rows.slice(0, HTML_ROW_LIMIT);
  const parts: string[] = [];
  parts.push(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${a(CONTENT_SECURITY_POLICY)}">
<title>Comparison of ${c.variants.length} runs</title><style>${REPORT_CSS}${COMPARE_CSS}</style></head><body>
<h1>Comparison of ${c.variants.length} runs</h1>
<p class="meta">${plural(c.rows.length, 'row')}, ${c.pairedRows} graded by every run, ${c.unpairedRows} not paired · created ${h(c.createdAt)}</p>
${c.confirmationsIgnored ? `<p class="note">${c.confirmationsIgnored} confirming answers (--confirm) left out: they were asked only for rows that regressed.</p>\n` : ''}<p class="conclusion" id="conclusion">${h(c.conclusion)}</p>
<h2>Variants</h2>
<table id="variants"><thead><tr><th>variant</th><th>run</th><th>pass rate</th><th>95% CI</th><th>graded</th><th>needs review</th><th>errors</th><th>missing</th><th>latency p50</th><th>p95</th><th>confidence mean (min–max)</th></tr></thead><tbody>
${c.variants.map((_, i) => statsRow(c, i)).join('\n')}
</tbody></table>
<h2>Pairs</h2>
<p class="note">${h(pairsNote(c))}</p>
<table id="pairs"><thead><tr><th>first</th><th>second</th><th>wins</th><th>ties</th><th>losses</th><th>p</th><th>Holm p</th><th>significant</th></tr></thead><tbody>
${c.pairs.map((p) => `<tr><td>${h(c.variants[p.a]?.label ?? '')}</td><td>${h(c.variants[p.b]?.label ?? '')}</td><td>${p.wins}</td><td>${p.ties}</td><td>${p.losses}</td><td>${h(formatP(p.pValue))}</td><td>${h(formatP(p.adjustedP))}</td><td>${p.significant ? 'yes' : 'no'}</td></tr>`).join('\n')}
</tbody></table>
<h2>Rows side by side</h2>
<div class="controls"><label><input type="checkbox" id="only-disagree"> only rows where the variants disagree</label>
<input type="search" id="filter" placeholder="filter by text" aria-label="filter rows by text"> <span><span id="shown">${shown.length}</span> shown</span></div>
`);
  parts.push(`<table id="sbs" class="sbs"><thead><tr><th>row</th><th>question</th>${c.variants.map((v) => `<th>${h(v.label)}</th>`).join('')}</tr></thead><tbody>\n`);
  for (const row of shown) {
    const cells = row.cells.map((cell) => {
      if (!cell) return '<td class="cell"><span class="why">no result</span></td>';
      const answer = cell.answer !== undefined ? `<pre>${h(truncate(cell.answer, ANSWER_CHARS))}</pre>` : '';
      const why = cell.reason ? `<div class="why">${h(truncate(cell.reason, 300))}</div>` : '';
      return `<td class="cell"><b class="o-${a(cell.outcome)}">${h(cell.outcome)}</b>${answer}${why}</td>`;
    }).join('');
    const unpaired = row.unpaired ? `<div class="why">not paired: ${h(row.unpaired)}</div>` : '';
    parts.push(`<tr data-disagree="${row.disagree}"${row.disagree ? ' class="disagree"' : ''}><td class="id">${h(row.id)}</td><td>${h(row.question)}${unpaired}</td>${cells}</tr>\n`);
  }
  parts.push('</tbody></table>\n');
  if (c.rows.length > shown.length) parts.push(`<p class="note">${c.rows.length - shown.length} more rows are in compare.json.</p>\n`);
  parts.push(`<script>${COMPARE_SCRIPT}</script>\n</body></html>\n`);
  return parts.join('');
}
