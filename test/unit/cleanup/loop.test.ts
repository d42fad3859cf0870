import { describe, expect, it } from 'vitest';
import { newCursor } from '../../../src/cleanup/cursor';
import { FatalCloseError, pageThrough } from '../../../src/cleanup/loop';
import { buildCleanupReport } from '../../../src/cleanup/report';
import { cleanupSettings } from '../../../src/cleanup/rule';
import type { CleanupCursor, CleanupInput, CleanupReport } from '../../../src/cleanup/types';
import { DAY, FakeSite, many, NOW, session } from './fakeSite';

const base: CleanupInput = { siteId: 'site', idleForMs: 7 * DAY, pageSize: 10, closeBatchSize: 4 };

async function run(site: FakeSite, input: CleanupInput = base, cursor: CleanupCursor = newCursor(input, NOW)): Promise<CleanupReport> {
  const settings = cleanupSettings(input);
  const stoppedBy = await pageThrough(input, cursor, settings, site.ports());
  return buildCleanupReport(input, cursor, settings, { reportId: 'r', workflowId: 'w', finishedAt: new Date(NOW).toISOString(), stoppedBy });
}

/** 25 idle sessions (even ones), 25 recent (odd ones), newest first. */
function mixed(): FakeSite {
  return new FakeSite(many(50, 's', (i) => ({ idleDays: i % 2 === 0 ? 10 : 1 })));
}

describe('pageThrough on a stable list', () => {
  it('pages until pagination.total, closes exactly the idle active sessions in batches, one pass', async () => {
    const site = mixed();
    const report = await run(site);
    expect(report.counts).toEqual({ listed: 50, relisted: 0, matched: 25, closed: 25, alreadyClosed: 0, failed: 0, unreadable: 0, notMatched: 25, overMax: 0 });
    expect(report).toMatchObject({ passes: 1, pages: 5, complete: true, dryRun: false });
    expect(site.closedIds().sort()).toEqual(many(25, '', () => ({})).map((_, i) => `s${i * 2}`).sort());
    expect(Math.max(...site.closeCalls.map((b) => b.length))).toBeLessThanOrEqual(4);
  });

  it('is idempotent: a second run closes nothing new and counts the sessions as already closed', async () => {
    const site = mixed();
    await run(site);
    const calls = site.closeCalls.length;
    const again = await run(site);
    expect(again.counts).toMatchObject({ matched: 0, closed: 0, alreadyClosed: 25 });
    expect(site.closeCalls.length).toBe(calls);
  });

  it('dry run: counts and samples what would be closed, closes nothing', async () => {
    const site = mixed();
    const report = await run(site, { ...base, dryRun: true, sampleSize: 3 });
    expect(report.counts).toMatchObject({ listed: 50, matched: 25, closed: 0 });
    expect(report.samples.map((s) => s.id)).toEqual(['s0', 's2', 's4']);
    expect(site.closeCalls).toEqual([]);
    expect(report.notes[0]).toMatch(/dry run/);
  });

  it('--max stops after N sessions, dry or not', async () => {
    const site = mixed();
    const dry = await run(site, { ...base, dryRun: true, max: 7 });
    expect(dry).toMatchObject({ counts: { matched: 7 }, stoppedBy: 'max', complete: false });
    const real = await run(site, { ...base, max: 7 });
    expect(real.counts).toMatchObject({ matched: 7, closed: 7 });
    expect(site.closedIds()).toHaveLength(7);
    expect(real.notes.join()).toMatch(/max = 7/);
  });

  it('an empty site is one page and complete', async () => {
    const report = await run(new FakeSite([]));
    expect(report).toMatchObject({ pages: 1, passes: 1, complete: true, counts: { listed: 0, matched: 0 } });
  });
});

describe('pageThrough on a list that changes while it is paged', () => {
  it('closed sessions vanishing from the list make offset paging skip; the re-list pass closes the rest', async () => {
    const site = new FakeSite(many(50, 's', () => ({ idleDays: 10 })), { hideClosed: true });
    const report = await run(site);
    expect(site.closedIds()).toHaveLength(50);
    expect(report.counts).toMatchObject({ matched: 50, closed: 50 });
    expect(report.counts.listed).toBeLessThan(50); // the first pass skipped sessions …
    expect(report.counts.relisted).toBeGreaterThan(0); // … that a re-list pass read
    expect(report.passes).toBeGreaterThanOrEqual(2);
    expect(report.complete).toBe(true);
  });

  it('sessions added at the front shift the pages: nothing is closed twice and nothing idle is missed', async () => {
    let added = 0;
    const site = new FakeSite(many(50, 's', (i) => ({ idleDays: i % 2 === 0 ? 10 : 1 })), {
      beforeList: (call, s) => {
        if (call > 0 && call < 4) for (let k = 0; k < 3; k++) s.add(session(`new${added++}`));
      },
    });
    const report = await run(site);
    const closes = site.closeCalls.flat();
    expect(new Set(closes).size).toBe(closes.length);
    expect(site.closedIds().sort()).toEqual(Array.from({ length: 25 }, (_, i) => `s${i * 2}`).sort());
    expect(report.counts.closed).toBe(25);
    expect(report.passes).toBe(2); // the total changed: one verification pass, which found nothing new
  });

  it('stops after maxPasses with a note when the list never settles', async () => {
    let n = 0;
    const site = new FakeSite(many(30, 's', () => ({ idleDays: 10 })), {
      hideClosed: true,
      beforeList: (_call, s) => s.add(session(`idle${n++}`, { idleDays: 10 })),
    });
    const report = await run(site, { ...base, maxPasses: 2 });
    expect(report).toMatchObject({ passes: 2, stoppedBy: 'passes', complete: false });
    expect(report.notes.join()).toMatch(/run the cleanup again/);
  });
});

describe('pageThrough failures', () => {
  it('a close failure is reported with its reason and not retried by a later pass', async () => {
    const site = new FakeSite(many(20, 's', () => ({ idleDays: 10 })), {
      hideClosed: true,
      failClose: (id) => (id === 's3' ? '404 session not found' : undefined),
    });
    const report = await run(site);
    expect(report.counts).toMatchObject({ matched: 20, closed: 19, failed: 1 });
    expect(report.failures).toEqual([{ sessionId: 's3', error: '404 session not found' }]);
    expect(report.failureReasons).toEqual({ '404 session not found': 1 });
    expect(site.closeCalls.flat().filter((id) => id === 's3')).toHaveLength(1);
  });

  it('a 401 while closing stops the cleanup', async () => {
    const site = new FakeSite(many(20, 's', () => ({ idleDays: 10 })), { failClose: () => '401 invalid_api_key' });
    await expect(run(site)).rejects.toThrow(FatalCloseError);
    await expect(run(site)).rejects.toThrow(/401 invalid_api_key/);
  });

  it('a cancel stops before the next page', async () => {
    const site = mixed();
    const input = base;
    const cursor = newCursor(input, NOW);
    let pages = 0;
    const ports = { ...site.ports(), cancelled: () => pages >= 2, beforePage: async () => void pages++ };
    const stopped = await pageThrough(input, cursor, cleanupSettings(input), ports);
    expect(stopped).toBe('cancelled');
    expect(cursor.pages).toBe(2);
  });
});

describe('continue-as-new', () => {
  it('a run resumed from its cursor ends exactly like an uninterrupted one', async () => {
    const whole = await run(mixed());
    const site = mixed();
    const cursor = newCursor(base, NOW);
    const interrupt = new Error('continue-as-new');
    const ports = { ...site.ports(), beforePage: async (n: number) => { if (n >= 2) throw interrupt; } };
    await expect(pageThrough(base, cursor, cleanupSettings(base), ports)).rejects.toBe(interrupt);
    const resumed = await run(site, base, JSON.parse(JSON.stringify(cursor)) as CleanupCursor);
    expect(resumed.counts).toEqual(whole.counts);
    expect(resumed.pages).toBe(whole.pages);
  });
});
