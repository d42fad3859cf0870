import { verdictLabel } from '../../analysis/gate';
import { lineName } from '../../analysis/multiSite';
import { type MultiSiteSummary } from '../../domain/multiSite';
import { SiteVerdict } from '../../domain/siteVerdict';
import type { RunSummary } from '../../domain/results';
import { plural } from '../../shared/plural';

function pct(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

/**
 * The per-site lines of a multi-site run's summary (none for a single site's): one line a site with its rows, pass
 * rate, errors, verdict and where its reports are.
 */
export function siteLines(s: RunSummary): string[] {
  const sites = (s as Partial<MultiSiteSummary>).sites;
  if (!Array.isArray(sites) || sites.length === 0) return [];
  const matrix = sites.some((x) => x.variant);
  const width = Math.max(...sites.map((x) => lineName(x).length));
  const lines = sites.map((x, i) => {
    const verdict = x.verdict === SiteVerdict.runFailed ? 'RUN FAILED' : verdictLabel(x.verdict);
    const errors = x.error + x.timedOut;
    const where = x.reportDir ? ` — ${x.reportDir}` : x.failure ? ` — ${x.failure}` : '';
    const uncertain = x.uncertain ? `, uncertain ${x.uncertain}` : '';
    const label = i > 0 ? '           ' : matrix ? 'variants   ' : 'sites      ';
    const settings = matrix ? ` (site ${x.siteId}${x.variant?.model ? `, model ${x.variant.model}` : ''}${x.variant?.responseLanguage ? `, language ${x.variant.responseLanguage}` : ''}${x.variant?.uiLocale ? `, locale ${x.variant.uiLocale}` : ''})` : '';
    return `${label}${lineName(x).padEnd(width)}  ${plural(x.rows, 'row')}, pass rate ${pct(x.passRate)}${uncertain}, errors ${errors}, ${verdict}${settings}${where}`;
  });
  return [...lines, ...comparisonLines(s as MultiSiteSummary)];
}

/** The comparison's sentence; or why there is none. */
function comparisonLines(s: MultiSiteSummary): string[] {
  if (s.comparison) return [`compared   ${s.comparison.conclusion} (rows side by side: compare.html in the run's report directory)`];
  return s.comparisonUnavailable ? [`compared   ${s.comparisonUnavailable}`] : [];
}
