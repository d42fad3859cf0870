import { verdictLabel } from '../reports/gate';
import type { MultiSiteSummary } from '../reports/multiSite';
import { SiteVerdict } from '../reports/siteVerdict';
import type { RunSummary } from '../reports/types';

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
  const width = Math.max(...sites.map((x) => x.siteId.length));
  return sites.map((x, i) => {
    const verdict = x.verdict === SiteVerdict.runFailed ? 'RUN FAILED' : verdictLabel(x.verdict);
    const errors = x.error + x.timedOut;
    const where = x.reportDir ? ` — ${x.reportDir}` : x.failure ? ` — ${x.failure}` : '';
    const uncertain = x.uncertain ? `, uncertain ${x.uncertain}` : '';
    return `${i === 0 ? 'sites      ' : '           '}${x.siteId.padEnd(width)}  ${x.rows} rows, pass rate ${pct(x.passRate)}${uncertain}, errors ${errors}, ${verdict}${where}`;
  });
}
