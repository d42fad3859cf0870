import { describe, expect, it } from 'vitest';
import { newCursor, recordClose } from '../../../src/cleanup/cursor';
import { buildCleanupReport, formatCleanupReport } from '../../../src/cleanup/report';
import { cleanupSettings } from '../../../src/cleanup/rule';
import type { CleanupInput } from '../../../src/cleanup/types';
import { DAY, NOW } from './fakeSite';

const meta = { reportId: '20260301-0000-abc', workflowId: 'sitechat-cleanup-20260301-0000-abc', finishedAt: new Date(NOW).toISOString() };

describe('cleanup report', () => {
  it('shows the rule with absolute cutoffs fixed at the start', () => {
    const input: CleanupInput = { siteId: 'demo-site', idleForMs: 7 * DAY, email: 'a@b.c', createdBefore: '2026-02-01T00:00:00Z' };
    const r = buildCleanupReport(input, newCursor(input, NOW), cleanupSettings(input), meta);
    expect(r.rule).toEqual({ email: 'a@b.c', idleForMs: 7 * DAY, updatedAtOrBefore: '2026-02-22T00:00:00.000Z', createdBefore: '2026-02-01T00:00:00.000Z', max: undefined });
    expect(r.startedAt).toBe('2026-03-01T00:00:00.000Z');
    expect(formatCleanupReport(r)[0]).toBe('Session cleanup of site demo-site (email a@b.c, idle since 2026-02-22T00:00:00.000Z, created before 2026-02-01T00:00:00.000Z)');
  });

  it('a dry run lists what it would close, capped, with the count of the rest', () => {
    const input: CleanupInput = { siteId: 's', idleForMs: DAY, dryRun: true };
    const c = newCursor(input, NOW);
    c.counts.matched = 30;
    c.samples = Array.from({ length: 25 }, (_, i) => ({ id: `s${i}`, email: '', createdAt: 'c', updatedAt: 'u', messageCount: 1 }));
    const lines = formatCleanupReport(buildCleanupReport(input, c, cleanupSettings(input), meta), { maxListed: 5 });
    expect(lines).toContain('  matched         30 (would be closed)');
    expect(lines).toContain('Would close:');
    expect(lines).toContain('  s0  (no email)  updated u  created c');
    expect(lines).toContain('  … and 25 more');
    expect(lines.join('\n')).not.toMatch(/^ {2}closed/m);
    expect(lines).toContain('Note: dry run: nothing was closed');
  });

  it('failures: counted by reason, the first ones kept with their session, reasons beyond 20 counted as other', () => {
    const input: CleanupInput = { siteId: 's', idleForMs: DAY };
    const c = newCursor(input, NOW);
    const failed = Array.from({ length: 130 }, (_, i) => ({ sessionId: `s${i}`, error: `500 reason ${i % 25}` }));
    expect(recordClose(c, { closed: 3, failed })).toBeUndefined();
    expect(c.counts).toMatchObject({ closed: 3, failed: 130 });
    expect(c.failures).toHaveLength(100);
    expect(Object.keys(c.failureReasons)).toHaveLength(21);
    expect(c.failureReasons.other).toBe(25); // reasons 20–24, five times each
    expect(recordClose(c, { closed: 0, failed: [{ sessionId: 'x', error: '403 api_access_not_available_on_plan' }] })).toMatch(/^403/);
    const lines = formatCleanupReport(buildCleanupReport(input, c, cleanupSettings(input), { ...meta, stoppedBy: 'error', error: 'boom' }));
    expect(lines).toContain('  failed          131');
    expect(lines).toContain('Stopped by an error: boom');
  });
});
