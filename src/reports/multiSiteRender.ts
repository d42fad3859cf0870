/**
 * The combined report files of a multi-site run: summary.json, report.md, report.html and junit.xml in one
 * directory, with a table of the sites and links to each site's own reports (which hold the rows).
 */
import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { writeFileAtomic } from './fileIo';
import { ReportFile } from './files';
import { describeGateSettings, pct, verdictLabel } from './gate';
import { CONTENT_SECURITY_POLICY, REPORT_CSS } from './htmlAssets';
import { overallLabel, SiteVerdict, type MultiSiteSummary, type SiteLine } from './multiSite';
import { provenanceHtml, provenanceMd, provenanceProperties, simulatorBannerHtml, simulatorNoticeMd } from './provenanceRender';
import { escapeHtml as h, escapeHtmlAttr as a, escapeXml, escapeXmlAttr, formatMs, mdInline } from './escape';
import { GateVerdict } from './types';

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

export function renderMultiSiteMarkdown(s: MultiSiteSummary, outDir: string): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const table = [line(SITE_HEADER), line(SITE_HEADER.map(() => '---')), ...s.sites.map((site) => {
    const link = siteLink(outDir, site, ReportFile.markdown);
    return line([link ? `[${mdInline(site.siteId)}](${link})` : mdInline(site.siteId), ...siteCells(site)]);
  })].join('\n');
  const parts = [
    `# Multi-site evaluation report: ${mdInline(s.dataset)}`,
    simulatorNoticeMd(s.provenance),
    `Run ${mdInline(s.runId)} on ${s.sites.length} sites; ${s.total} rows in all, pass rate **${rate(s.passRate)}** (${s.passed} / ${s.graded} graded), `
      + `latency p50 ${formatMs(s.latencyMs.p50)}, p95 ${formatMs(s.latencyMs.p95)}; ${formatMs(s.durationMs)}.`,
    '## Sites',
    table,
    '## Verdict',
    s.gate ? `**Overall: ${overallLabel(s.gate.verdict, s.sites, verdictLabel)}** (every site's gate must pass; a site without a threshold is not judged)` : 'No verdict.',
    [...(s.gate?.reasons ?? []).map((r) => `- ${mdInline(r, 2000)}`), ...(s.gate?.warnings ?? []).map((w) => `- ⚠️ ${mdInline(w, 2000)}`)].join('\n'),
    s.gateSettings ? `Gate settings, for every site:\n\n${describeGateSettings(s.gateSettings).map((l) => `- ${mdInline(l, 300)}`).join('\n')}` : '',
    ...baselineLines(s),
    provenanceMd(s.provenance),
  ];
  return `${parts.filter((p) => p !== '').join('\n\n')}\n`;
}

function baselineLines(s: MultiSiteSummary): string[] {
  const rows = s.sites.filter((site) => site.baseline).map((site) => {
    const b = site.baseline as NonNullable<SiteLine['baseline']>;
    const delta = b.delta === null ? 'n/a' : `${b.delta >= 0 ? '+' : ''}${(b.delta * 100).toFixed(1)} pts`;
    return `- ${mdInline(site.siteId)}: against ${mdInline(b.runId)}, ${delta}, ${b.regressed} regressed, ${b.fixed} fixed`;
  });
  return rows.length > 0 ? ['## Baselines (each site against its own)', rows.join('\n')] : [];
}

export function renderMultiSiteHtml(s: MultiSiteSummary, outDir: string): string {
  const title = `Multi-site evaluation report: ${s.dataset}`;
  const rows = s.sites.map((site) => {
    const link = siteLink(outDir, site, ReportFile.html);
    const name = link ? `<a href="${a(link)}">${h(site.siteId)}</a>` : h(site.siteId);
    const cls = site.verdict === SiteVerdict.runFailed ? GateVerdict.failed : site.verdict;
    const cells = siteCells(site).map((c, i, all) => (i === all.length - 1 ? `<td class="o-${a(cls)}">${h(c)}</td>` : `<td>${h(c)}</td>`));
    return `<tr><td>${name}</td>${cells.join('')}</tr>`;
  });
  const list = (items: string[], cls: string): string => (items.length ? `<ul class="${cls}">${items.map((r) => `<li>${h(r)}</li>`).join('')}</ul>` : '');
  const verdict = s.gate
    ? `<section class="verdict ${a(s.gate.verdict)}"><p class="label">Overall: ${h(overallLabel(s.gate.verdict, s.sites, verdictLabel))} (every site's gate must pass; a site without a threshold is not judged)</p>${list(s.gate.reasons, 'reasons')}${list(s.gate.warnings, 'warnings')}</section>`
    : '';
  const meta = [`run ${s.runId}`, `${s.sites.length} sites`, `${s.total} rows`, `pass rate ${rate(s.passRate)}`, `started ${s.startedAt}`, `took ${formatMs(s.durationMs)}`];
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${a(CONTENT_SECURITY_POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${h(title)}</title>
<style>${REPORT_CSS}</style></head><body>
<header><h1>${h(title)}</h1>${simulatorBannerHtml(s.provenance)}<p class="meta">${h(meta.join(' · '))}</p>${provenanceHtml(s.provenance)}</header>
<h2>Verdict</h2>${verdict}
<h2>Sites</h2><table class="tags"><thead><tr>${SITE_HEADER.map((c) => `<th>${h(c)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="note">Each site's report (rows, baseline, failures) is linked from its name.</p>
</body></html>\n`;
}

/** One test case per site's gate, so a CI page shows which site failed; each site's junit.xml has its rows. */
export function renderMultiSiteJUnit(s: MultiSiteSummary): string {
  const cases = s.sites.map((site) => {
    const reasons = [...(site.failure ? [site.failure] : []), ...(site.gate?.reasons ?? [])].join('\n');
    const body = site.verdict === SiteVerdict.failed
      ? `<failure message="${escapeXmlAttr(`gate failed on site ${site.siteId}`)}">${escapeXml(reasons)}</failure>`
      : site.verdict === SiteVerdict.runFailed || site.verdict === SiteVerdict.cancelled
        ? `<error message="${escapeXmlAttr(`${siteVerdictLabel(site.verdict)} on site ${site.siteId}`)}">${escapeXml(reasons)}</error>`
        : '';
    const time = site.durationMs === null ? '' : ` time="${(site.durationMs / 1000).toFixed(3)}"`;
    return `    <testcase classname="sitechat.gate" name="${escapeXmlAttr(site.siteId)}"${time}>${body}</testcase>`;
  });
  const failures = s.sites.filter((x) => x.verdict === SiteVerdict.failed).length;
  const errors = s.sites.filter((x) => x.verdict === SiteVerdict.runFailed || x.verdict === SiteVerdict.cancelled).length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="sitechat" tests="${s.sites.length}" failures="${failures}" errors="${errors}">
  <testsuite name="${escapeXmlAttr(`${s.dataset} (sites)`)}" tests="${s.sites.length}" failures="${failures}" errors="${errors}">
${properties(s)}${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}

function properties(s: MultiSiteSummary): string {
  const entries = Object.entries({ runId: s.runId, ...provenanceProperties(s.provenance) }).filter((e): e is [string, string] => e[1] !== undefined);
  return `    <properties>\n${entries.map(([name, value]) => `      <property name="${escapeXmlAttr(name)}" value="${escapeXmlAttr(value)}"/>\n`).join('')}    </properties>\n`;
}

/** Writes the four combined files into `outDir` (created if needed); returns their paths. */
export async function writeMultiSiteReports(summary: MultiSiteSummary, outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files: [string, string][] = [
    [MultiSiteReportFile.summary, `${JSON.stringify(summary, null, 2)}\n`],
    [MultiSiteReportFile.markdown, renderMultiSiteMarkdown(summary, outDir)],
    [MultiSiteReportFile.html, renderMultiSiteHtml(summary, outDir)],
    [MultiSiteReportFile.junit, renderMultiSiteJUnit(summary)],
  ];
  for (const [name, text] of files) await writeFileAtomic(join(outDir, name), text);
  return files.map(([name]) => join(outDir, name));
}
