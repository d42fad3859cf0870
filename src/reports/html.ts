import { baselineVerdict } from './baseline';
import { pct } from './gate';
import { CONTENT_SECURITY_POLICY, REPORT_CSS, REPORT_SCRIPT } from './htmlAssets';
import { histogramSvg } from './svg';
import { escapeHtml as h, escapeHtmlAttr as a, formatMs, truncate } from './text';
import { Outcome, type RowResult, type RunSummary } from './types';

export interface HtmlOptions {
  /** Rows of any outcome listed in the table. @default 2000 */
  maxRows?: number;
  /** Past `maxRows`, rows that did not pass are still listed until the table holds this many. @default 5000 */
  maxProblemRows?: number;
  /** Characters of a question / answer shown per cell. @default 600 */
  maxText?: number;
}

const PROBLEMS = new Set<string>([Outcome.failed, Outcome.error, Outcome.timedOut]);

/**
 * `report.html`: one self-contained page (inline CSS, SVG and script; a CSP forbids anything
 * external). Streams the row table; the cap keeps a 100,000-row run's page a sane size while
 * still listing every problem row it can. All run data is escaped.
 */
export async function* renderHtml(
  summary: RunSummary,
  results: AsyncIterable<RowResult>,
  options: HtmlOptions = {},
): AsyncGenerator<string> {
  const { maxRows = 2000, maxProblemRows = 5000, maxText = 600 } = options;
  const title = `Evaluation report: ${summary.dataset}`;
  yield `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${a(CONTENT_SECURITY_POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${h(title)}</title>
<style>${REPORT_CSS}</style></head><body>\n`;
  yield header(summary, title);
  yield verdict(summary);
  yield tagsAndCharts(summary);
  yield `<h2>Rows</h2><div class="controls"><input id="q" type="search" placeholder="Filter rows…" aria-label="Filter rows">
<select id="o" aria-label="Outcome"><option value="">all outcomes</option>${Object.values(Outcome).map((o) => `<option>${o}</option>`).join('')}<option value="regressed">regressed</option></select>
<span id="count" class="note"></span></div>
<table id="rows"><thead><tr><th data-num>line</th><th>id</th><th>outcome</th><th>tags</th><th>question</th><th>answer</th><th>expected</th><th data-num>confidence</th><th data-num>latency ms</th><th>reasons / error</th></tr></thead><tbody>\n`;
  const regressed = new Set(summary.baseline?.regressed);
  let shown = 0;
  let total = 0;
  for await (const row of results) {
    total++;
    if (shown < maxRows || (shown < maxProblemRows && (PROBLEMS.has(row.outcome) || regressed.has(row.id)))) {
      shown++;
      yield tableRow(row, regressed.has(row.id), maxText);
    }
  }
  yield '</tbody></table>\n';
  if (shown < total) {
    yield `<p class="note">Listing ${shown} of ${total} rows: all rows up to ${maxRows}, then rows that did not pass up to ${maxProblemRows}. Every row is in results.jsonl.</p>\n`;
  }
  yield `<script>${REPORT_SCRIPT}</script>\n</body></html>\n`;
}

function header(s: RunSummary, title: string): string {
  const card = (label: string, value: string | number): string => `<div class="card"><b>${h(String(value))}</b>${h(label)}</div>`;
  const meta = [`run ${s.runId}`, `site ${s.siteId}`, s.model ? `model ${s.model}` : '', `started ${s.startedAt}`, s.durationMs === null ? '' : `took ${formatMs(s.durationMs)}`];
  return `<header><h1>${h(title)}</h1><p class="meta">${h(meta.filter(Boolean).join(' · '))}</p></header>
<section class="cards">${[
    card('pass rate', s.passRate === null ? 'n/a' : pct(s.passRate)),
    card('passed', s.passed),
    card('failed', s.failed),
    card('error', s.error),
    card('timed out', s.timedOut),
    card('skipped', s.skipped),
    card('answered', s.answered),
    card('missing', s.missing),
    card('p50 latency', formatMs(s.latencyMs.p50)),
    card('p95 latency', formatMs(s.latencyMs.p95)),
    card('feedback good/bad', `${s.feedback.good}/${s.feedback.bad}`),
  ].join('')}</section>\n`;
}

function verdict(s: RunSummary): string {
  const items = [...(s.gate?.reasons ?? []), ...(s.gate?.warnings ?? [])].map((r) => `<li>${h(truncate(r, 2000))}</li>`);
  const gate = s.gate ? `<p><b>Quality gate: ${s.gate.passed ? 'PASSED' : 'FAILED'}</b></p>` : '';
  const baseline = s.baseline ? `<p>${h(baselineVerdict(s.baseline))}</p>` : '<p>No baseline given.</p>';
  const cls = s.gate && !s.gate.passed ? 'verdict failed' : 'verdict';
  return `<h2>Verdict</h2><section class="${cls}">${gate}${baseline}${items.length ? `<ul>${items.join('')}</ul>` : ''}</section>\n`;
}

function tagsAndCharts(s: RunSummary): string {
  const tags = Object.entries(s.byTag).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const tagRows = tags.map(([tag, t]) => {
    const width = (n: number): string => (t.total === 0 ? '0' : ((n / t.total) * 100).toFixed(1));
    const bar = `<div class="stack" title="${a(`${t.passed} passed, ${t.failed} failed of ${t.total}`)}"><div class="p" style="width:${width(t.passed)}%"></div><div class="f" style="width:${width(t.failed)}%"></div></div>`;
    return `<tr><td>${h(tag)}</td><td>${t.total}</td><td>${t.passed}</td><td>${t.failed}</td><td>${t.graded ? pct(t.passed / t.graded) : 'n/a'}</td><td>${bar}</td></tr>`;
  });
  const tagTable = tags.length
    ? `<h2>Pass/fail by tag</h2><table><thead><tr><th>tag</th><th>rows</th><th>passed</th><th>failed</th><th>pass rate</th><th></th></tr></thead><tbody>${tagRows.join('')}</tbody></table>\n`
    : '';
  const charts = [
    histogramSvg(s.distributions.latencyMs, { title: 'Latency (ms)', unit: '' }),
    histogramSvg(s.distributions.confidence, { title: 'Confidence score (0–100)' }),
  ];
  return `${tagTable}<h2>Distributions</h2><section class="charts">${charts.join('')}</section>\n`;
}

function tableRow(row: RowResult, regressed: boolean, maxText: number): string {
  const cell = (text: string | undefined, cls = 'text'): string => `<td class="${cls}">${h(truncate(text ?? '', maxText))}</td>`;
  const num = (v: number | undefined): string => `<td data-v="${a(String(v ?? ''))}">${v === undefined ? '' : h(String(Math.round(v)))}</td>`;
  const reasons = (row.assertions ?? []).filter((x) => !x.pass).map((x) => `${x.type}: ${x.reason}`);
  if (row.error !== undefined) reasons.push(`${row.errorType ?? 'Error'}: ${row.error}`);
  const flags = `data-outcome="${a(row.outcome)}"${regressed ? ' data-regressed class="regressed"' : ''}`;
  const outcome = `${row.outcome}${regressed ? ' (regressed)' : ''}`;
  return `<tr ${flags}>${num(row.line)}${cell(row.id, 'id')}<td class="o-${a(row.outcome)}">${h(outcome)}</td>${cell(row.tags?.join(', '), 'tags')}${cell(row.question)}${cell(row.answer)}${cell(row.expected)}${num(row.confidenceScore)}${num(row.latencyMs)}${cell(reasons.join('\n'))}</tr>\n`;
}
