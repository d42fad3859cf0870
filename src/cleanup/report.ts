import { outcomeLine } from '../domain/notify';
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

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
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
  const lines = [
    `${r.dryRun ? 'Dry run of the session cleanup' : 'Session cleanup'} of site ${r.siteId} (${rule})`,
    `  listed          ${c.listed} (${plural(r.pages, 'page')}, ${plural(r.passes, 'pass', 'passes')}${c.relisted > 0 ? `, ${c.relisted} read again` : ''})`,
    `  matched         ${c.matched}${r.dryRun ? ' (would be closed)' : ''}`,
  ];
  if (!r.dryRun) lines.push(`  closed          ${c.closed}`);
  lines.push(`  already closed  ${c.alreadyClosed}`);
  if (!r.dryRun) lines.push(`  failed          ${c.failed}`);
  if (c.unreadable > 0) lines.push(`  unreadable      ${c.unreadable} (timestamps could not be read; left open)`);
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
