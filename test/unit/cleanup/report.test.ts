import { describe, expect, it } from 'vitest';
import { newCursor, recordClose } from '../../../src/cleanup/cursor';
import { pageThrough } from '../../../src/cleanup/loop';
import { buildCleanupReport, formatCleanupReport } from '../../../src/cleanup/report';
import { cleanupSettings } from '../../../src/cleanup/rule';
import type { CleanupInput } from '../../../src/cleanup/types';
import { DAY, FakeSite, NOW, session, type FakeSession } from './fakeSite';

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
    Object.assign(c.counts, { listed: 40, matched: 30, notMatched: 10 });
    c.samples = Array.from({ length: 25 }, (_, i) => ({ id: `s${i}`, email: '', createdAt: 'c', updatedAt: 'u', messageCount: 1 }));
    const lines = formatCleanupReport(buildCleanupReport(input, c, cleanupSettings(input), meta), { maxListed: 5 });
    expect(lines[1]).toMatch(/: 30 matched \(would be closed\), 0 already closed, 10 did not match the rule$/);
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
    c.counts.matched = 133;
    expect(recordClose(c, { closed: 3, failed })).toBeUndefined();
    expect(c.counts).toMatchObject({ closed: 3, failed: 130 });
    expect(c.failures).toHaveLength(100);
    expect(Object.keys(c.failureReasons)).toHaveLength(21);
    expect(c.failureReasons.other).toBe(25); // reasons 20–24, five times each
    expect(recordClose(c, { closed: 0, failed: [{ sessionId: 'x', error: '403 api_access_not_available_on_plan' }] })).toMatch(/^403/);
    c.counts.matched = 140;
    const lines = formatCleanupReport(buildCleanupReport(input, c, cleanupSettings(input), { ...meta, stoppedBy: 'error', error: 'boom' }));
    expect(lines[2]).toBe('  closed          3 of the 140 that matched; 131 failed, 6 not tried (the cleanup stopped first)');
    expect(lines).toContain('Stopped by an error: boom');
  });

  it('says what became of every listed session, in counts that add up', async () => {
    // 215 sessions: 3 idle and open, 100 idle and closed already, 112 recent.
    const sessions = (): FakeSession[] => [
      ...Array.from({ length: 3 }, (_, i) => session(`idle${i}`, { idleDays: 10 })),
      ...Array.from({ length: 100 }, (_, i) => session(`done${i}`, { idleDays: 10, closed: true })),
      ...Array.from({ length: 112 }, (_, i) => session(`new${i}`, { idleDays: 1 })),
    ];
    const site = new FakeSite(sessions());
    const input: CleanupInput = { siteId: 's', idleForMs: 7 * DAY, pageSize: 50 };
    const settings = cleanupSettings(input);
    const c = newCursor(input, NOW);
    await pageThrough(input, c, settings, site.ports());
    const lines = formatCleanupReport(buildCleanupReport(input, c, settings, meta));
    expect(lines[1]).toBe('  listed          215 (5 pages, 1 pass): 3 matched and closed, 100 already closed, 112 did not match the rule');
    expect(lines).toHaveLength(2);
    // --max 2: the third is left open, and said so.
    const capped = new FakeSite(sessions());
    const maxInput: CleanupInput = { ...input, max: 2 };
    const cc = newCursor(maxInput, NOW);
    await pageThrough(maxInput, cc, cleanupSettings(maxInput), capped.ports());
    const maxLines = formatCleanupReport(buildCleanupReport(maxInput, cc, cleanupSettings(maxInput), meta));
    expect(maxLines[1]).toMatch(/^ {2}listed {10}50 \(1 page, 1 pass\): 3 matched the rule, 47 already closed, 0 did not match the rule$/);
    expect(maxLines[2]).toBe('  closed          2 of the 3 that matched; 1 left open (--max 2 reached)');
  });
});
