/**
 * The combined report files of a multi-site run: summary.json, report.md, report.html and junit.xml in one
 * directory, with a table of the sites and links to each site's own reports (which hold the rows).
 */
import { mkdir } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { NOTIFICATIONS_FILE, notificationsJson, withNotificationsSection } from './reportNote';
import type { NotifyOutcome } from '../domain/notify';
import { causeLine } from '../analysis/cause';
import { writeFileAtomic } from '../shared/fileIo';
import { ReportFile } from '../store/files';
import { describeGateSettings, pct, verdictLabel } from '../analysis/gate';
import { CONTENT_SECURITY_POLICY, REPORT_CSS } from './htmlAssets';
import { lineName, lineNoun, overallLabel, SiteVerdict } from '../analysis/multiSite';
import { type MultiSiteSummary, type SiteLine } from '../domain/multiSite';
import type { Comparison } from '../analysis/compare/types';
import { writeComparison } from './compare/write';
import { comparisonHtml, comparisonMd } from './matrixRender';
import { provenanceHtml, provenanceMd, provenanceProperties, simulatorBannerHtml, simulatorNoticeMd } from './provenanceRender';
import { escapeXml, escapeXmlAttr, formatMs, mdInline } from './escape';
import { html, raw, type SafeHtml } from './htmlTemplate';
import { plural } from '../shared/plural';
import { GateVerdict } from '../domain/results';

/** The files of a combined report (no results.jsonl: the rows are in each site's directory). */
export const MultiSiteReportFile = {
  summary: ReportFile.summary,
  markdown: ReportFile.markdown,
  html: ReportFile.html,
  junit: ReportFile.junit,
} as const;

function rate(value: number | null): string {
  return value === null ? 'n/a' : pct(value);
}

function siteVerdictLabel(v: SiteLine['verdict']): string {
  return v === SiteVerdict.runFailed ? 'RUN FAILED' : verdictLabel(v);
}

/** Link from the combined report's directory to a site's report file, or nothing when the site wrote none. */
function siteLink(outDir: string, site: SiteLine, file: string): string | undefined {
  return site.reportDir ? relative(outDir, join(site.reportDir, file)).split('\\').join('/') : undefined;
}

function siteCells(s: SiteLine): string[] {
  return [
    String(s.rows), String(s.passed), String(s.failed), String(s.uncertain ?? 0), String(s.error + s.timedOut), String(s.skipped + s.missing),
    rate(s.passRate), rate(s.errorRate), formatMs(s.durationMs), siteVerdictLabel(s.verdict),
  ];
}

const SITE_HEADER = ['site', 'rows', 'passed', 'failed', 'uncertain', 'errors', 'skipped/missing', 'pass rate', 'error rate', 'duration', 'verdict'];

/** A matrix run's table: each variant's name and settings, then the same figures. */
const VARIANT_HEADER = ['variant', 'site', 'model', 'language', 'locale', ...SITE_HEADER.slice(1)];

function isMatrix(s: MultiSiteSummary): boolean {
  return s.sites.some((x) => x.variant);
}

function header(s: MultiSiteSummary): string[] {
  return isMatrix(s) ? VARIANT_HEADER : SITE_HEADER;
}

/** The settings columns of a matrix run's line (none for a multi-site run's). */
function settingCells(s: MultiSiteSummary, line: SiteLine): string[] {
  if (!isMatrix(s)) return [];
  const v = line.variant;
  return [line.siteId, v?.model ?? 'default', v?.responseLanguage ?? '-', v?.uiLocale ?? '-'];
}

/** The dataset's file name: its full path is in the run line, and in summary.json. */
function title(s: MultiSiteSummary): string {
  return isMatrix(s) ? `Matrix evaluation report: ${basename(s.dataset)}` : `Multi-site evaluation report: ${basename(s.dataset)}`;
}

export function renderMultiSiteMarkdown(s: MultiSiteSummary, outDir: string): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const head = header(s);
  const table = [line(head), line(head.map(() => '---')), ...s.sites.map((site) => {
    const link = siteLink(outDir, site, ReportFile.markdown);
    const name = lineName(site);
    return line([link ? `[${mdInline(name)}](${link})` : mdInline(name), ...settingCells(s, site).map((c) => mdInline(c)), ...siteCells(site)]);
  })].join('\n');
  const noun = lineNoun(s.sites);
  const parts = [
    `# ${mdInline(title(s))}`,
    simulatorNoticeMd(s.provenance),
    s.cause ? `**Cause:** ${mdInline(causeLine(s.cause), 1000)}` : '',
    `Run ${mdInline(s.runId)} of ${mdInline(s.dataset, 500)} in ${s.sites.length} ${lineNoun(s.sites, s.sites.length)}; ${plural(s.total, 'row')} in all, pass rate **${rate(s.passRate)}** (${s.passed} / ${s.graded} graded), `
      + `latency p50 ${formatMs(s.latencyMs.p50)}, p95 ${formatMs(s.latencyMs.p95)}; ${formatMs(s.durationMs)}.`,
    isMatrix(s) ? '## Variants' : '## Sites',
    table,
    '## Verdict',
    s.gate ? `**Overall: ${overallLabel(s.gate.verdict, s.sites, verdictLabel)}** (every ${noun}'s gate must pass; a ${noun} without a threshold is not judged${s.reference ? `; no variant may beat the reference ${mdInline(s.reference)} significantly` : ''})` : 'No verdict.',
    [...(s.gate?.reasons ?? []).map((r) => `- ${mdInline(r, 2000)}`), ...(s.gate?.warnings ?? []).map((w) => `- ⚠️ ${mdInline(w, 2000)}`)].join('\n'),
    ...comparisonMd(s),
    s.gateSettings ? `Gate settings, for every ${noun}:\n\n${describeGateSettings(s.gateSettings).map((l) => `- ${mdInline(l, 300)}`).join('\n')}` : '',
    ...baselineLines(s),
    provenanceMd(s.provenance),
  ];
  return `${parts.filter((p) => p !== '').join('\n\n')}\n`;
}

function baselineLines(s: MultiSiteSummary): string[] {
  const rows = s.sites.filter((site) => site.baseline).map((site) => {
    const b = site.baseline as NonNullable<SiteLine['baseline']>;
    const delta = b.delta === null ? 'n/a' : `${b.delta >= 0 ? '+' : ''}${(b.delta * 100).toFixed(1)} pts`;
    return `- ${mdInline(lineName(site))}: against ${mdInline(b.runId)}, ${delta}, ${b.regressed} regressed, ${b.fixed} fixed`;
  });
  return rows.length > 0 ? [`## Baselines (each ${lineNoun(s.sites)} against its own)`, rows.join('\n')] : [];
}

export function renderMultiSiteHtml(s: MultiSiteSummary, outDir: string): string {
  const pageTitle = title(s);
  const noun = lineNoun(s.sites);
  const rows = s.sites.map((site) => {
    const link = siteLink(outDir, site, ReportFile.html);
    const name = link ? html`<a href="${link}">${lineName(site)}</a>` : lineName(site);
    const cls = site.verdict === SiteVerdict.runFailed ? GateVerdict.failed : site.verdict;
    const settings = settingCells(s, site).map((c) => html`<td>${c}</td>`);
    const cells = siteCells(site).map((c, i, all) => (i === all.length - 1 ? html`<td class="o-${cls}">${c}</td>` : html`<td>${c}</td>`));
    return html`<tr><td>${name}</td>${settings}${cells}</tr>`;
  });
  const list = (items: string[], cls: string): SafeHtml | false => items.length > 0 && html`<ul class="${cls}">${items.map((r) => html`<li>${r}</li>`)}</ul>`;
  const reference = s.reference && html`; no variant may beat the reference ${s.reference} significantly`;
  const verdict = s.gate
    && html`<section class="verdict ${s.gate.verdict}"><p class="label">Overall: ${overallLabel(s.gate.verdict, s.sites, verdictLabel)} (every ${noun}'s gate must pass; a ${noun} without a threshold is not judged${reference})</p>${list(s.gate.reasons, 'reasons')}${list(s.gate.warnings, 'warnings')}</section>`;
  const cause = s.cause && html`<p class="cause" role="alert"><b>Cause:</b> ${causeLine(s.cause)}</p>`;
  const meta = [`run ${s.runId}`, `dataset ${s.dataset}`, `${s.sites.length} ${lineNoun(s.sites, s.sites.length)}`, plural(s.total, 'row'), `pass rate ${rate(s.passRate)}`, `started ${s.startedAt}`, `took ${formatMs(s.durationMs)}`];
  return html`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${pageTitle}</title>
<style>${raw(REPORT_CSS)}</style></head><body>
<header><h1>${pageTitle}</h1>${simulatorBannerHtml(s.provenance)}${cause}<p class="meta">${meta.join(' · ')}</p>${provenanceHtml(s.provenance)}</header>
<h2>Verdict</h2>${verdict}
${comparisonHtml(s)}
<h2>${isMatrix(s) ? 'Variants' : 'Sites'}</h2><table class="tags"><thead><tr>${header(s).map((c) => html`<th>${c}</th>`)}</tr></thead><tbody>${rows}</tbody></table>
<p class="note">Each ${noun}'s report (rows, baseline, failures) is linked from its name.</p>
</body></html>\n`.value;
}

/** One test case per site's gate, so a CI page shows which site failed; each site's junit.xml has its rows. */
export function renderMultiSiteJUnit(s: MultiSiteSummary): string {
  const cases = s.sites.map((site) => {
    const reasons = [...(site.failure ? [site.failure] : []), ...(site.gate?.reasons ?? [])].join('\n');
    const body = site.verdict === SiteVerdict.failed
      ? `<failure message="${escapeXmlAttr(`gate failed on ${lineNoun([site])} ${lineName(site)}`)}">${escapeXml(reasons)}</failure>`
      : site.verdict === SiteVerdict.runFailed || site.verdict === SiteVerdict.cancelled
        ? `<error message="${escapeXmlAttr(`${siteVerdictLabel(site.verdict)} on ${lineNoun([site])} ${lineName(site)}`)}">${escapeXml(reasons)}</error>`
        : '';
    const time = site.durationMs === null ? '' : ` time="${(site.durationMs / 1000).toFixed(3)}"`;
    return `    <testcase classname="sitechat.gate" name="${escapeXmlAttr(lineName(site))}"${time}>${body}</testcase>`;
  });
  const failures = s.sites.filter((x) => x.verdict === SiteVerdict.failed).length;
  const errors = s.sites.filter((x) => x.verdict === SiteVerdict.runFailed || x.verdict === SiteVerdict.cancelled).length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="sitechat" tests="${s.sites.length}" failures="${failures}" errors="${errors}">
  <testsuite name="${escapeXmlAttr(`${basename(s.dataset)} (${lineNoun(s.sites, 2)})`)}" tests="${s.sites.length}" failures="${failures}" errors="${errors}">
${properties(s)}${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}

function properties(s: MultiSiteSummary): string {
  const entries = Object.entries({ runId: s.runId, ...provenanceProperties(s.provenance) }).filter((e): e is [string, string] => e[1] !== undefined);
  return `    <properties>\n${entries.map(([name, value]) => `      <property name="${escapeXmlAttr(name)}" value="${escapeXmlAttr(value)}"/>\n`).join('')}    </properties>\n`;
}

/**
 * Writes the four combined files into `outDir` (created if needed), and the comparison's four (compare.md, .html,
 * .json, .junit.xml, as `sitechat compare` writes them) when there is one; returns their paths. `notifications`
 * (`ResultsStore.getNotifications` of the multi-site run) go into report.md's last section and notifications.json.
 */
export async function writeMultiSiteReports(summary: MultiSiteSummary, outDir: string, comparison?: Comparison, notifications?: readonly NotifyOutcome[]): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files: [string, string][] = [
    [MultiSiteReportFile.summary, `${JSON.stringify(summary, null, 2)}\n`],
    [MultiSiteReportFile.markdown, withNotificationsSection(renderMultiSiteMarkdown(summary, outDir), notifications)],
    [MultiSiteReportFile.html, renderMultiSiteHtml(summary, outDir)],
    [MultiSiteReportFile.junit, renderMultiSiteJUnit(summary)],
  ];
  if (notifications) files.push([NOTIFICATIONS_FILE, notificationsJson(notifications)]);
  for (const [name, text] of files) await writeFileAtomic(join(outDir, name), text);
  const compared = comparison ? Object.values(await writeComparison(comparison, outDir)) : [];
  return [...files.map(([name]) => join(outDir, name)), ...compared];
}
