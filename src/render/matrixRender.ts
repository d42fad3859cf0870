/**
 * The comparison section of a multi-site or matrix run's report.md and report.html: the sentence, each variant's
 * pass rate with its interval, and the pair table, with links to compare.html (rows side by side) and compare.md.
 */
import { CompareFile } from '../analysis/compare/types';
import { pairsNote, pctOf } from './compare/markdown';
import { formatP } from '../analysis/stats';
import { mdInline } from './escape';
import { html, type SafeHtml } from './htmlTemplate';
import type { ComparisonDigest } from '../domain/multiSite';
import type { MultiSiteSummary } from '../domain/multiSite';
import { plural } from '../shared/plural';

function interval(v: ComparisonDigest['variants'][number]): string {
  return v.interval ? `${pctOf(v.interval[0])}–${pctOf(v.interval[1])}` : 'n/a';
}

const PAIR_HEADER = ['first', 'second', 'wins', 'ties', 'losses', 'p', 'Holm p', 'significant'];

function pairCells(p: ComparisonDigest['pairs'][number]): string[] {
  return [p.first, p.second, String(p.wins), String(p.ties), String(p.losses), formatP(p.p), formatP(p.adjustedP), p.significant ? 'yes' : 'no'];
}

export function comparisonMd(s: MultiSiteSummary): string[] {
  const c = s.comparison;
  if (!c) return s.comparisonUnavailable ? ['## Comparison', mdInline(s.comparisonUnavailable, 2000)] : [];
  const row = (cells: readonly string[]): string => `| ${cells.map((x) => mdInline(x)).join(' | ')} |`;
  return [
    '## Comparison',
    `**${mdInline(c.conclusion, 1000)}**`,
    `${plural(c.pairedRows, 'row')} graded by every variant, ${c.unpairedRows} not paired. Rows side by side: [${CompareFile.html}](${CompareFile.html}) `
      + `(filter to the rows where the variants disagree), [${CompareFile.markdown}](${CompareFile.markdown}), ${CompareFile.json}, ${CompareFile.junit}.`,
    [row(['variant', 'pass rate', '95% CI', 'graded']), row(['---', '---', '---', '---']),
      ...c.variants.map((v) => row([v.name, pctOf(v.passRate), interval(v), String(v.decided)]))].join('\n'),
    pairsNote(c),
    [row(PAIR_HEADER), row(PAIR_HEADER.map(() => '---')), ...c.pairs.map((p) => row(pairCells(p)))].join('\n'),
    ...(c.leftOut?.length ? [`Not compared: ${c.leftOut.map((l) => mdInline(l, 500)).join('; ')}`] : []),
  ];
}

export function comparisonHtml(s: MultiSiteSummary): SafeHtml {
  const c = s.comparison;
  if (!c) return s.comparisonUnavailable ? html`<h2>Comparison</h2><p class="note">${s.comparisonUnavailable}</p>` : html``;
  const variants = c.variants.map((v) => html`<tr><td>${v.name}</td><td>${pctOf(v.passRate)}</td><td>${interval(v)}</td><td>${v.decided}</td></tr>`);
  const pairs = c.pairs.map((p) => html`<tr>${pairCells(p).map((x) => html`<td>${x}</td>`)}</tr>`);
  return html`<h2>Comparison</h2><p class="conclusion" id="conclusion"><b>${c.conclusion}</b></p>
<p class="note">${plural(c.pairedRows, 'row')} graded by every variant, ${c.unpairedRows} not paired. <a href="${CompareFile.html}">Rows side by side</a> (filter to the rows where the variants disagree).</p>
<table id="comparison-variants"><thead><tr><th>variant</th><th>pass rate</th><th>95% CI</th><th>graded</th></tr></thead><tbody>${variants}</tbody></table>
<p class="note" id="pairs-note">${pairsNote(c)}</p>
<table id="comparison-pairs"><thead><tr>${PAIR_HEADER.map((x) => html`<th>${x}</th>`)}</tr></thead><tbody>${pairs}</tbody></table>
${c.leftOut?.length ? html`<p class="note">Not compared: ${c.leftOut.join('; ')}</p>` : ''}`;
}
