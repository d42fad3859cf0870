import { outcomeLine } from '../domain/notify';
import { plural } from '../shared/plural';
import type { ResolvedCleanupSettings } from './rule';
import type { CleanupCursor, CleanupInput, CleanupReport, StopReason } from './types';

export interface ReportMeta {
  reportId: string;
  workflowId: string;
  finishedAt: string;
  stoppedBy?: StopReason;
  error?: string;
}

/** The report of a finished (or stopped) cleanup, from its cursor. */
export function buildCleanupReport(input: CleanupInput, c: CleanupCursor, s: ResolvedCleanupSettings, meta: ReportMeta): CleanupReport {
  const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());
  const notes = [...c.notes];
  if (s.dryRun) notes.unshift('dry run: nothing was closed');
  if (meta.stoppedBy === 'max') notes.push(`stopped at max = ${s.max ?? 0}: more sessions may match`);
  return {
    reportId: meta.reportId,
    workflowId: meta.workflowId,
    siteId: input.siteId,
    dryRun: s.dryRun,
    rule: {
      email: c.rule.email,
      idleForMs: input.idleForMs,
      updatedAtOrBefore: iso(c.rule.updatedAtOrBefore),
      createdBefore: iso(c.rule.createdBefore),
      max: s.max,
    },
    startedAt: c.startedAt,
    finishedAt: meta.finishedAt,
    passes: c.pass,
    pages: c.pages,
    counts: { ...c.counts },
    samples: c.samples,
    failures: c.failures,
    failureReasons: c.failureReasons,
    complete: meta.stoppedBy === undefined,
    stoppedBy: meta.stoppedBy,
    error: meta.error,
    notes,
  };
}

/** Every session that matched was closed: nothing failed, none was left open by `max` or a stop. */
function allClosed(c: CleanupReport['counts']): boolean {
  return c.closed === c.matched && c.failed === 0 && (c.overMax ?? 0) === 0;
}

/**
 * What became of the listed sessions, in words that add up: "listed 215 (1 page, 1 pass): 3 matched and closed, 100
 * already closed, 112 did not match the rule". The matches are the first pass's (re-list passes are counted apart).
 */
function listedLine(r: CleanupReport): string {
  const c = r.counts;
  const notMatched = c.notMatched;
  const firstMatched = notMatched === undefined ? c.matched : c.listed - c.alreadyClosed - c.unreadable - notMatched;
  const wouldClose = (c.overMax ?? 0) > 0 ? `${c.matched} would be closed: --max ${r.rule.max ?? 0}` : 'would be closed';
  const matched = r.dryRun ? `${firstMatched} matched (${wouldClose})` : allClosed(c) ? `${firstMatched} matched and closed` : `${firstMatched} matched the rule`;
  const parts = [
    matched,
    `${c.alreadyClosed} already closed`,
    ...(notMatched === undefined ? [] : [`${notMatched} did not match the rule`]),
    ...(c.unreadable > 0 ? [`${c.unreadable} unreadable (timestamps could not be read; left open)`] : []),
  ];
  const later = c.matched + (c.overMax ?? 0) - firstMatched;
  const again = c.relisted > 0 ? `, ${c.relisted} read again${later > 0 ? ` (${later} more matched)` : ''}` : '';
  return `  listed          ${c.listed} (${plural(r.pages, 'page')}, ${plural(r.passes, 'pass', 'passes')}${again}): ${parts.join(', ')}`;
}

/** Human-readable summary lines of a report; a dry run lists the sessions it would close, at most `maxListed`. */
export function formatCleanupReport(r: CleanupReport, options: { maxListed?: number } = {}): string[] {
  const maxListed = options.maxListed ?? 20;
  const c = r.counts;
  const rule = [
    r.rule.email === undefined ? undefined : `email ${r.rule.email}`,
    r.rule.updatedAtOrBefore === undefined ? undefined : `idle since ${r.rule.updatedAtOrBefore}`,
    r.rule.createdBefore === undefined ? undefined : `created before ${r.rule.createdBefore}`,
  ].filter((x): x is string => x !== undefined).join(', ');
  const lines = [`${r.dryRun ? 'Dry run of the session cleanup' : 'Session cleanup'} of site ${r.siteId} (${rule})`, listedLine(r)];
  const overMax = c.overMax ?? 0;
  // Unless every match was closed (said above), what became of them: closed, failed, left open by --max, not tried.
  if (!r.dryRun && !allClosed(c)) {
    const notTried = c.matched - c.closed - c.failed;
    const rest = [
      ...(c.failed > 0 ? [`${c.failed} failed`] : []),
      ...(overMax > 0 ? [`${overMax} left open (--max ${r.rule.max ?? 0} reached)`] : []),
      ...(notTried > 0 ? [`${notTried} not tried (the cleanup stopped first)`] : []),
    ];
    lines.push(`  closed          ${c.closed} of the ${c.matched + overMax} that matched${rest.length > 0 ? `; ${rest.join(', ')}` : ''}`);
  }
  for (const [reason, n] of Object.entries(r.failureReasons)) lines.push(`    ${n} × ${reason}`);
  for (const o of r.notifications ?? []) lines.push(`  notification    ${outcomeLine(o)}`);
  if (r.dryRun && r.samples.length > 0) {
    lines.push('Would close:');
    for (const s of r.samples.slice(0, maxListed)) lines.push(`  ${s.id}  ${s.email || '(no email)'}  updated ${s.updatedAt}  created ${s.createdAt}`);
    const more = c.matched - Math.min(maxListed, r.samples.length);
    if (more > 0) lines.push(`  … and ${more} more`);
  }
  if (r.error !== undefined) lines.push(`Stopped by an error: ${r.error}`);
  for (const note of r.notes) lines.push(`Note: ${note}`);
  if (r.reportPath !== undefined) lines.push(`Report: ${r.reportPath}`);
  return lines;
}
