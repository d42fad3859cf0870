import { basename } from 'node:path';
import { baseIdOf } from '../datasets/repeat';
import { baselineVerdict } from '../analysis/baseline';
import { causeLine } from '../analysis/cause';
import { plural } from '../shared/plural';
import { EMPTY_CONTEXT, type ReportContext } from '../analysis/context';
import { describeGateSettings, pct, verdictLabel } from '../analysis/gate';
import { CONTENT_SECURITY_POLICY, REPORT_CSS, REPORT_SCRIPT } from './htmlAssets';
import { confirmationHtml, repeatsSection } from './htmlRepeats';
import { reviewSections, sideEffectSections } from './htmlReview';
import { provenanceHtml, simulatorBannerHtml } from './provenanceRender';
import { histogramSvg } from './svg';
import { askedTwiceText, formatMs, reaskedLine, reviewedLine, truncate } from './escape';
import { html, raw, type SafeHtml } from './htmlTemplate';
import { DECIDED_BY_A_PERSON, gradersHead, gradersView, personLine, personView } from './labelView';
import { Outcome, type RowResult, type RunSummary } from '../domain/results';

export interface HtmlOptions {
  /** Rows of any outcome listed in the table. @default 2000 */
  maxRows?: number;
  /** Past `maxRows`, rows that did not pass are still listed until the table holds this many. @default 5000 */
  maxProblemRows?: number;
  /** Characters of a question / answer shown per cell. @default 600 */
  maxText?: number;
  /** Rows to review, baseline answers, earlier turns, lost feedback, unclosed sessions (`collectReportContext`). */
  context?: ReportContext;
}

const PROBLEMS = new Set<string>([Outcome.failed, Outcome.uncertain, Outcome.error, Outcome.timedOut]);

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
  const { maxRows = 2000, maxProblemRows = 5000, maxText = 600, context = EMPTY_CONTEXT } = options;
  const title = `Evaluation report: ${basename(summary.dataset)}`;
  const sections = [
    html`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>${raw(REPORT_CSS)}</style></head><body>\n`,
    header(summary, title),
    verdict(summary),
    baselineSection(summary),
    repeatsSection(summary, maxText),
    tagTable(summary),
    reviewSections(context, summary.baseline?.runId ?? 'baseline', Math.max(maxText, 1500)),
    sideEffectSections(context),
    askedAgainSection(summary),
    charts(summary),
    html`<h2>All rows</h2><div class="controls"><input id="q" type="search" placeholder="Filter rows…" aria-label="Filter rows">
<select id="o" aria-label="Outcome"><option value="">all outcomes</option>${Object.values(Outcome).map((o) => html`<option>${o}</option>`)}<option value="regressed">regressed</option></select>
<span id="count" class="note"></span></div>
<table id="rows"><thead><tr><th data-num>line</th><th>id</th><th>outcome</th><th>tags</th><th>question</th><th>answer</th><th>expected</th><th data-num>confidence</th><th data-num>latency ms</th><th>graded by / error</th></tr></thead><tbody>\n`,
  ];
  for (const section of sections) yield section.value;
  const regressed = new Set(summary.baseline?.regressed);
  let shown = 0;
  let total = 0;
  for await (const row of results) {
    total++;
    if (shown < maxRows || (shown < maxProblemRows && (PROBLEMS.has(row.outcome) || regressed.has(baseIdOf(row))))) {
      shown++;
      yield tableRow(row, regressed.has(baseIdOf(row)), maxText).value;
    }
  }
  yield '</tbody></table>\n';
  if (shown < total) {
    yield html`<p class="note">Listing ${shown} of ${plural(total, 'row')}: all rows up to ${maxRows}, then rows that did not pass up to ${maxProblemRows}. Every row is in results.jsonl.</p>\n`.value;
  }
  yield html`<script>${raw(REPORT_SCRIPT)}</script>\n</body></html>\n`.value;
}

function header(s: RunSummary, title: string): SafeHtml {
  const card = (label: string, value: string | number, alarm = false): SafeHtml => html`<div class="card${alarm && ' alarm'}"><b>${value}</b>${label}</div>`;
  const meta = [`run ${s.runId}`, `site ${s.siteId}`, s.model ? `model ${s.model}` : 'site default model', `dataset ${s.dataset}`, `started ${s.startedAt}`, s.durationMs === null ? '' : `took ${formatMs(s.durationMs)}`, s.cancelled ? 'CANCELLED' : ''];
  // The cause most errors share comes first: the rows below only repeat it.
  const cause = s.cause && html`<p class="cause" role="alert"><b>Cause:</b> ${causeLine(s.cause)}</p>`;
  return html`<header><h1>${title}</h1>${simulatorBannerHtml(s.provenance)}${cause}<p class="meta">${meta.filter(Boolean).join(' · ')}</p>${provenanceHtml(s.provenance)}</header>
<section class="cards">${[
    card('pass rate', s.passRate === null ? 'n/a' : pct(s.passRate)),
    card('passed', s.passed),
    card('failed', s.failed),
    card('uncertain (needs review)', s.uncertain ?? 0, (s.uncertain ?? 0) > 0),
    card('error', s.error),
    card('timed out', s.timedOut),
    card('skipped', s.skipped),
    card('answered', s.answered),
    card('missing', s.missing),
    card('p50 latency', formatMs(s.latencyMs.p50)),
    card('p95 latency', formatMs(s.latencyMs.p95)),
    card('feedback good/bad', `${s.feedback.good}/${s.feedback.bad}`),
    card('feedback lost', s.feedback.failed, s.feedback.failed > 0),
    card('sessions not closed', s.sessions.closeFailed ?? 'n/a', (s.sessions.closeFailed ?? 0) > 0),
    ...(s.judge ? [card('judge calls / cached', `${s.judge.calls}/${s.judge.cached}`), card('judge tokens', s.judge.tokens.toLocaleString('en-US'))] : []),
    ...(s.escalated ? [card('escalated to the judge', plural(s.escalated.rows, 'row')), card('escalation calls / tokens', `${s.escalated.calls}/${s.escalated.tokens.toLocaleString('en-US')}`)] : []),
    ...(s.reviewed ? [card('reviewed', reviewedLine(s.reviewed))] : []),
  ]}</section>\n`;
}

function verdict(s: RunSummary): SafeHtml {
  const list = (items: string[], cls: string): SafeHtml | false => items.length > 0 && html`<ul class="${cls}">${items.map((r) => html`<li>${truncate(r, 2000)}</li>`)}</ul>`;
  if (!s.gate) {
    const text = s.cancelled ? 'Run CANCELLED: unsent rows are recorded as skipped.' : s.kind === 'backfill' ? 'Backfill: answers recorded, no quality gate.' : 'No verdict yet: the run is not finished.';
    return html`<h2>Verdict</h2><section class="verdict ${s.cancelled ? 'cancelled' : 'none'}"><p><b>${text}</b></p></section>\n`;
  }
  const settings = s.gateSettings && html`<details open><summary>Gate settings applied</summary>${list(describeGateSettings(s.gateSettings), 'settings')}</details>`;
  return html`<h2>Verdict</h2><section class="verdict ${s.gate.verdict}"><p class="label">Quality gate: ${verdictLabel(s.gate.verdict)}</p>${list(s.gate.reasons, 'reasons')}${list(s.gate.warnings, 'warnings')}${settings}</section>\n`;
}

/** Questions sent more than once: re-asked after the service failed them, and sends that may have reached the API twice. */
function askedAgainSection(s: RunSummary): SafeHtml {
  const parts: SafeHtml[] = [];
  if (s.reasked) parts.push(html`<p>${reaskedLine(s.reasked)}: <span class="id">${s.reasked.rowIds.join(', ')}</span></p>`);
  if (s.askedTwice?.count) parts.push(html`<p>possibly asked twice: ${askedTwiceText(s.askedTwice)}: <span class="id">${s.askedTwice.rowIds.join(', ')}</span></p>`);
  return parts.length > 0 ? html`<h2>Asked again</h2><section class="asked-again">${parts}</section>\n` : html``;
}

function baselineSection(s: RunSummary): SafeHtml {
  const sel = s.baselineSelection;
  if (!sel && !s.baseline) return s.gate ? html`<h2>Baseline</h2><p class="note">No baseline given.</p>\n` : html``;
  const parts: SafeHtml[] = [];
  if (sel?.chosen) parts.push(html`<p>Compared with <b>${sel.chosen.runId}</b>: ${sel.chosen.reason}.</p>`);
  if (sel?.message) parts.push(html`<p><b>No comparison:</b> ${sel.message}.</p>`);
  for (const warning of sel?.warnings ?? []) parts.push(html`<p class="warn">⚠ ${warning}</p>`);
  if (s.baseline) parts.push(html`<p>${baselineVerdict(s.baseline)}</p>`);
  if (s.baseline?.confirmation) parts.push(confirmationHtml(s.baseline.confirmation));
  if (sel && sel.skipped.length > 0) {
    const items = sel.skipped.map((x) => html`<li><span class="id">${x.runId}</span>: ${x.reason}</li>`);
    if (sel.skippedMore > 0) items.push(html`<li>… ${sel.skippedMore} more runs</li>`);
    parts.push(html`<details open><summary>Runs passed over (${sel.skipped.length + sel.skippedMore}), newest first</summary><ul>${items}</ul></details>`);
  }
  return html`<h2>Baseline</h2><section class="baseline">${parts}</section>\n`;
}

function tagTable(s: RunSummary): SafeHtml {
  const tags = Object.entries(s.byTag).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const base = s.baseline?.byTag;
  const tagRows = tags.map(([tag, t]) => {
    const width = (n: number): string => (t.total === 0 ? '0' : ((n / t.total) * 100).toFixed(1));
    const bar = html`<div class="stack" title="${`${t.passed} passed, ${t.failed} failed of ${t.total}`}"><div class="p" style="width:${width(t.passed)}%"></div><div class="f" style="width:${width(t.failed)}%"></div></div>`;
    const now = t.graded ? t.passed / t.graded : null;
    let change = html``;
    if (base) {
      const b = base[tag];
      const then = b?.graded ? b.passed / b.graded : null;
      const delta = now === null || then === null ? null : now - then;
      const cls = delta === null || Math.abs(delta) < 1e-9 ? '' : delta < 0 ? 'down' : 'up';
      const td = cls ? html`<td class="${cls}">` : html`<td>`;
      change = html`<td>${then === null ? 'n/a' : pct(then)}</td>${td}${delta === null ? 'n/a' : `${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(1)} pts`}</td>`;
    }
    return html`<tr><td>${tag}</td><td>${t.total}</td><td>${t.passed}</td><td>${t.failed}</td><td>${now === null ? 'n/a' : pct(now)}</td>${change}<td>${bar}</td></tr>`;
  });
  const baseHead = base && html`<th>baseline</th><th>change</th>`;
  return tags.length > 0
    ? html`<h2>Pass rate by tag</h2><table class="tags"><thead><tr><th>tag</th><th>rows</th><th>passed</th><th>failed</th><th>pass rate</th>${baseHead}<th></th></tr></thead><tbody>${tagRows}</tbody></table>\n`
    : html``;
}

function charts(s: RunSummary): SafeHtml {
  const svgs = [
    histogramSvg(s.distributions.latencyMs, { title: 'Latency (ms)', unit: '' }),
    histogramSvg(s.distributions.confidence, { title: 'Confidence score (0–100)' }),
  ];
  return html`<h2>Distributions</h2><section class="charts">${svgs}</section>\n`;
}

/** A latency that leaves out time nobody watched (see `latencyUnobservedMs`) is marked, with that time in its title. */
function latencyCell(row: RowResult): SafeHtml {
  const v = row.latencyMs;
  if (v === undefined) return html`<td data-v=""></td>`;
  if (!row.latencyUnobservedMs) return html`<td data-v="${v}">${Math.round(v)}</td>`;
  const title = `plus up to ${Math.round(row.latencyUnobservedMs)} ms the runner could not watch (a worker died or Temporal was down)`;
  return html`<td data-v="${v}" title="${title}">${Math.round(v)}*</td>`;
}

function tableRow(row: RowResult, regressed: boolean, maxText: number): SafeHtml {
  const cell = (text: string | undefined, cls = 'text'): SafeHtml => html`<td class="${cls}">${truncate(text ?? '', maxText)}</td>`;
  const num = (v: number | undefined): SafeHtml => html`<td data-v="${v ?? ''}">${v !== undefined && Math.round(v)}</td>`;
  const person = personView(row);
  const reasons = [
    ...(person ? [personLine(person), gradersHead(gradersView(row))] : []),
    ...(row.assertions ?? []).map((x) => `${x.pass ? '✓' : x.uncertain ? '?' : '✗'} ${x.type}${x.rule ? ` [${x.rule}]` : ''}: ${x.reason}`),
  ];
  if (row.error !== undefined) reasons.push(`${row.errorType ?? 'Error'}: ${row.error}`);
  if (row.feedbackError !== undefined) reasons.push(`feedback not recorded: ${row.feedbackError}`);
  const flags = regressed && html` data-regressed class="regressed"`;
  const outcome = `${row.outcome}${person ? ` (${DECIDED_BY_A_PERSON})` : ''}${regressed ? ' (regressed)' : ''}`;
  return html`<tr data-outcome="${row.outcome}"${flags}>${num(row.line)}${cell(row.id, 'id')}<td class="o-${row.outcome}">${outcome}</td>${cell(row.tags?.join(', '), 'tags')}${cell(row.question)}${cell(row.answer)}${cell(row.expected)}${num(row.confidenceScore)}${latencyCell(row)}${cell(reasons.join('\n'))}</tr>\n`;
}
