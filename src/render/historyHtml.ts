import { basename } from 'node:path';
import { pct } from '../analysis/gate';
import { RunOrigin, verdictWords, type HistoryEntry, type ParentGroup } from './history';
import { CONTENT_SECURITY_POLICY, REPORT_CSS } from './htmlAssets';
import { truncate } from './escape';
import { html, joinHtml, raw, type SafeHtml } from './htmlTemplate';
import { pageStyle } from '../shared/pageAsset';
import { plural } from '../shared/plural';
import { trendSvg } from './trendSvg';

export interface HistoryHtmlOptions {
  /** Link to a run's report.html, relative to the page; undefined when the run has none. */
  href(entry: HistoryEntry): string | undefined;
  /** ISO time shown as "generated at". */
  generatedAt: string;
  /** Matrix and multi-site runs, each with its variants, and a link to its combined report when there is one. */
  parents?: (ParentGroup & { href?: string })[];
}

/** Styles of the history page, on top of the report's (page/history.css). Constants only: no run data is interpolated here. */
const HISTORY_CSS = pageStyle(__dirname, 'history');

const SERIES = [
  { key: 'pass', title: 'pass rate', className: 'pass' },
  { key: 'err', title: 'error rate', className: 'err' },
] as const;

/** " · built-in simulator" / " · Site Chat API at host": where the answers came from, a group title's last part. */
function sourceWords(source: string | undefined): string {
  if (source === undefined) return '';
  if (source === 'simulator') return ' · built-in simulator';
  return source.startsWith('api ') ? ` · Site Chat API at ${source.slice(4)}` : ` · answers from ${source}`;
}

function rate(value: number | null): string {
  return value === null ? 'n/a' : pct(value);
}

/**
 * Runs grouped by dataset, site and model (and the answer language and locale a variant set), and by where the answers
 * came from: the simulator's pass rate says how the runner works, a real API's how good a site is, so they never share
 * a trend. The group with the newest run first; entries arrive newest first.
 */
function groups(entries: readonly HistoryEntry[]): HistoryEntry[][] {
  const byKey = new Map<string, HistoryEntry[]>();
  for (const e of entries) {
    const key = `${e.dataset}\u0000${e.siteId}\u0000${e.model ?? ''}\u0000${e.language ?? ''}\u0000${e.locale ?? ''}\u0000${e.source ?? ''}`;
    const list = byKey.get(key) ?? [];
    list.push(e);
    byKey.set(key, list);
  }
  return [...byKey.values()];
}

/**
 * Matrix and multi-site runs at the top: a line per parent with its variants (each links to its own report and
 * sits on its dataset, site and model's trend below), and the parent's combined report with the comparison.
 */
function parentsSection(options: HistoryHtmlOptions): SafeHtml {
  const parents = options.parents ?? [];
  if (parents.length === 0) return html``;
  const rows = parents.map((g) => {
    const id = g.href ? html`<a href="${g.href}">${g.runId}</a>` : g.runId;
    const variants = [...g.variants].reverse().map((e) => {
      const href = options.href(e);
      const name = e.parent?.variant ?? e.runId;
      return html`${href ? html`<a href="${href}">${name}</a>` : name} <span class="v-${e.verdict}">${verdictWords(e)}</span> ${rate(e.passRate)}`;
    });
    const first = g.variants[g.variants.length - 1] as HistoryEntry;
    return html`<tr><td>${id}</td><td>${first.startedAt.slice(0, 16).replace('T', ' ')}</td><td>${basename(first.dataset)}</td><td>${joinHtml(variants, raw('<br>'))}</td></tr>`;
  });
  return html`<section class="group" id="matrix-runs"><h2>Matrix and multi-site runs (${parents.length})</h2>
<p class="meta">Each variant is a run of its own, on its dataset, site and model's trend below; the run id opens the combined report with the comparison.</p>
<table><thead><tr><th>run</th><th>started (UTC)</th><th>dataset</th><th>variants: verdict, pass rate</th></tr></thead><tbody>
${joinHtml(rows, '\n')}
</tbody></table></section>\n`;
}

const TABLE_HEAD = html`<thead><tr><th>run</th><th>started (UTC)</th><th>kind</th><th>model</th><th>rows</th><th>pass rate</th><th>uncertain</th><th>errors</th><th>verdict</th><th>why</th></tr></thead>`;

/** Why a run failed or was cancelled (every reason, cut short), so a run that failed with a full pass rate does not read as a pass. */
function reasonCell(e: HistoryEntry): SafeHtml {
  const text = e.reasons.join('; ');
  const td = text.length > 300 ? html`<td class="reason" title="${truncate(text, 2000)}">` : html`<td class="reason">`;
  return html`${td}${truncate(text, 300)}</td>`;
}

const ORIGIN_LABEL: Record<RunOrigin, string> = { evaluation: 'evaluation', regrade: 're-grade', backfill: 'backfill' };

function table(runs: readonly HistoryEntry[], options: HistoryHtmlOptions): SafeHtml {
  const rows = runs.map((e) => {
    const href = options.href(e);
    const id = href ? html`<a href="${href}">${e.runId}</a>` : e.runId;
    return html`<tr><td>${id}</td><td>${e.startedAt.slice(0, 16).replace('T', ' ')}</td><td>${ORIGIN_LABEL[e.origin]}</td><td>${e.model ?? ''}</td><td>${e.rows}</td><td>${rate(e.passRate)}</td><td>${e.uncertain}</td><td>${e.errors} (${rate(e.errorRate)})</td><td class="v-${e.verdict}">${verdictWords(e)}</td>${reasonCell(e)}</tr>`;
  });
  return html`<table>${TABLE_HEAD}<tbody>\n${joinHtml(rows, '\n')}\n</tbody></table>`;
}

function group(runs: HistoryEntry[], options: HistoryHtmlOptions): SafeHtml {
  const head = runs[0] as HistoryEntry;
  const model = head.model ? `model ${head.model}` : 'the site\'s default model';
  const settings = [head.language && `answer language ${head.language}`, head.locale && `locale ${head.locale}`].filter(Boolean).join(', ');
  const title = `${basename(head.dataset)} on site ${head.siteId}, ${model}${settings ? `, ${settings}` : ''}${sourceWords(head.source)}`;
  const evaluations = runs.filter((e) => e.origin === RunOrigin.evaluation);
  const apart = runs.filter((e) => e.origin !== RunOrigin.evaluation);
  const parts: SafeHtml[] = [];
  if (evaluations.length > 0) {
    parts.push(trendSvg(evaluations.map((e) => ({
      at: e.startedAt,
      values: { pass: e.passRate, err: e.errorRate },
      label: `run ${e.runId} (${e.startedAt.slice(0, 16).replace('T', ' ')} UTC), ${verdictWords(e)}${e.reasons.length > 0 ? `: ${truncate(e.reasons.join('; '), 300)}` : ''}`,
      href: options.href(e),
      // A run that failed is marked on the trend whatever its pass rate: lost feedback fails a run of 100 %.
      ...(e.verdict === 'failed' && { className: 'failed' }),
    })), { title: `Pass and error rate: ${title}`, series: SERIES }));
    if (evaluations.some((e) => e.verdict === 'failed')) parts.push(html`<p class="meta">A pass rate ringed in red is a run that failed, whatever its rates: the table says why.</p>`);
    parts.push(html`<h3>Evaluations (${evaluations.length})</h3>`, table(evaluations, options));
  }
  if (apart.length > 0) {
    parts.push(html`<h3>Re-grades and backfills (${apart.length}), not on the trend</h3>`,
      html`<p class="meta">A re-grade grades answers an evaluation already recorded; a backfill records answers without grading them.</p>`, table(apart, options));
  }
  const counts = plural(runs.length, 'run');
  return html`<section class="group"><h2>${title}</h2><p class="meta">${head.dataset} · ${counts}</p>
${joinHtml(parts, '\n')}
</section>\n`;
}

/**
 * `history.html`: one self-contained page (inline CSS and SVG, no script; a CSP forbids anything external) with,
 * per dataset, site and model, the pass and error rate of every finished evaluation over time and a table of them,
 * then the re-grades and backfills of that dataset, site and model apart. Each
 * point and run id links to that run's report.html. All run data is escaped.
 */
export function renderHistoryHtml(entries: readonly HistoryEntry[], options: HistoryHtmlOptions): string {
  const body = entries.length === 0
    ? html`<p>No finished runs yet. Runs appear here once they have finished (sitechat run …).</p>\n`
    : html`${parentsSection(options)}${groups(entries).map((g) => group(g, options))}`;
  return html`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Run history</title>
<style>${raw(REPORT_CSS)}${raw(HISTORY_CSS)}</style></head><body>
<header><h1>Run history</h1><p class="meta">${`${plural(entries.length, 'finished run')} · generated ${options.generatedAt.slice(0, 16).replace('T', ' ')} UTC`}</p></header>
${body}</body></html>
`.value;
}
