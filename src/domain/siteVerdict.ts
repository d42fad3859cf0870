import { GateVerdict } from './results';

/** A site's verdict in a multi-site run: its gate's, or `run_failed` when its run ended on an error no row could recover from. */
export const SiteVerdict = { ...GateVerdict, runFailed: 'run_failed' } as const;
export type SiteVerdict = (typeof SiteVerdict)[keyof typeof SiteVerdict];

/** `SiteRunRef.failure.type` of a site whose run was never started because the run was cancelled first. */
export const CANCELLED_BEFORE_START = 'CancelledBeforeStart';

/** A line of a multi-site or matrix run: a site, or a named variant (`variant` set only in matrix runs). */
export interface NamedLine {
  siteId: string;
  variant?: { name: string };
  verdict: SiteVerdict;
}

/** What a line is called: its variant's name in a matrix run, else its site. */
export function lineName(line: Pick<NamedLine, 'siteId' | 'variant'>): string {
  return line.variant?.name ?? line.siteId;
}

/** "site" or "variant", plural with `n` other than 1. */
export function lineNoun(lines: readonly Pick<NamedLine, 'variant'>[], n = 1): string {
  const noun = lines.some((l) => l.variant) ? 'variant' : 'site';
  return n === 1 ? noun : `${noun}s`;
}

/** The sites (or variants) of a run whose gate judged nothing (no `--fail-under`, no baseline found), and those that passed. */
export function unjudgedSites(lines: readonly NamedLine[]): { unjudged: string[]; passed: string[] } {
  return {
    unjudged: lines.filter((s) => s.verdict === SiteVerdict.noThreshold).map(lineName),
    passed: lines.filter((s) => s.verdict === SiteVerdict.passed).map(lineName),
  };
}

/**
 * The overall verdict's label: a run with an unjudged site is never called PASSED, and says which sites were not
 * judged and which passed ("no quality threshold set on site c (passed: a, b)").
 */
export function overallLabel(verdict: GateVerdict, lines: readonly NamedLine[], label: (v: GateVerdict) => string): string {
  const { unjudged, passed } = unjudgedSites(lines);
  if (verdict !== GateVerdict.noThreshold || passed.length === 0) return label(verdict);
  return `${label(verdict)} on ${lineNoun(lines, unjudged.length)} ${unjudged.join(', ')} (passed: ${passed.join(', ')})`;
}
