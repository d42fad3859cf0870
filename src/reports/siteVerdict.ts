import { GateVerdict } from './types';

/** A site's verdict in a multi-site run: its gate's, or `run_failed` when its run ended on an error no row could recover from. */
export const SiteVerdict = { ...GateVerdict, runFailed: 'run_failed' } as const;
export type SiteVerdict = (typeof SiteVerdict)[keyof typeof SiteVerdict];

/** `SiteRunRef.failure.type` of a site whose run was never started because the run was cancelled first. */
export const CANCELLED_BEFORE_START = 'CancelledBeforeStart';

/** The sites of a multi-site run whose gate judged nothing (no `--fail-under`, no baseline found), and those that passed. */
export function unjudgedSites(lines: readonly { siteId: string; verdict: SiteVerdict }[]): { unjudged: string[]; passed: string[] } {
  return {
    unjudged: lines.filter((s) => s.verdict === SiteVerdict.noThreshold).map((s) => s.siteId),
    passed: lines.filter((s) => s.verdict === SiteVerdict.passed).map((s) => s.siteId),
  };
}

/**
 * The overall verdict's label: a run with an unjudged site is never called PASSED, and says which sites were not
 * judged and which passed ("no quality threshold set on site c (passed: a, b)").
 */
export function overallLabel(verdict: GateVerdict, lines: readonly { siteId: string; verdict: SiteVerdict }[], label: (v: GateVerdict) => string): string {
  const { unjudged, passed } = unjudgedSites(lines);
  if (verdict !== GateVerdict.noThreshold || passed.length === 0) return label(verdict);
  return `${label(verdict)} on ${unjudged.length === 1 ? 'site' : 'sites'} ${unjudged.join(', ')} (passed: ${passed.join(', ')})`;
}
