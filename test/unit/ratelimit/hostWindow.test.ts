import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { utimesSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostWindow } from '../../../src/ratelimit/hostWindow';
import { assertMet, skippable } from '../../helpers/requirements';
import { HostPacer, siteBudget, siteOfKey } from '../../../src/ratelimit/pacer';

const built = join(__dirname, '..', '..', '..', 'dist', 'src', 'ratelimit', 'hostWindow.js');

interface Span { start: number; end: number; pid: number }

/** A separate process sending `count` requests of `holdMs` each through the host window; prints their spans. */
function sender(dir: string, count: number, holdMs: number): Promise<Span[]> {
  const script = `
    const { HostWindow } = require(${JSON.stringify(built)});
    const w = new HostWindow(${JSON.stringify(dir)}, 'https://api POST /m2m/sites/s/chat/async', 3, 300);
    const spans = [];
    Promise.all(Array.from({ length: ${count} }, () => w.run(async () => {
      const start = Date.now();
      await new Promise((r) => setTimeout(r, ${holdMs}));
      spans.push({ start, end: Date.now(), pid: process.pid });
    }))).then(() => process.stdout.write(JSON.stringify(spans)));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Span[]) : reject(new Error(`sender exited ${code}`))));
  });
}

/** For every request: how many others were in flight, or answered less than a window before it started. */
function worstOverlap(spans: Span[], windowMs: number): number {
  let worst = 0;
  for (const s of spans) {
    const counted = spans.filter((o) => o !== s && o.start <= s.start && o.end > s.start - windowMs).length;
    worst = Math.max(worst, counted + 1);
  }
  return worst;
}

describe('HostWindow', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'host-window-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const notBuilt = existsSync(built) ? undefined : `${built} is missing: run \`npm run build\` first (npm test does)`;
  it.skipIf(skippable(notBuilt))('holds the budget across processes: never more than `limit` in a window, whoever sends', async () => {
    assertMet(notBuilt);
    const spans = (await Promise.all([sender(dir, 8, 10), sender(dir, 8, 10), sender(dir, 8, 10)])).flat();
    expect(spans).toHaveLength(24);
    expect(new Set(spans.map((s) => s.pid)).size).toBe(3);
    expect(worstOverlap(spans, 300)).toBeLessThanOrEqual(3);
    // And it is not slower than the budget allows: 24 requests at 3 per 300 ms (+ their 10 ms) take ~8 windows.
    const first = Math.min(...spans.map((s) => s.start));
    const last = Math.max(...spans.map((s) => s.start));
    expect(last - first).toBeGreaterThanOrEqual(7 * 300);
  });

  it('drops the holds of a process that is gone and breaks a lock left by a killed process', async () => {
    const w = new HostWindow(dir, 'k', 1, 100);
    // A dead worker's hold (pid 2^22 + 1 does not exist) and its lock file, two seconds old.
    const name = createHash('sha256').update('k').digest('hex').slice(0, 32);
    await writeFile(join(dir, `${name}.json`), JSON.stringify({ ends: [], holds: [{ id: 'x', pid: 4194305, host: hostname(), expiresAt: Date.now() + 60_000 }] }));
    await writeFile(join(dir, `${name}.lock`), '');
    utimesSync(join(dir, `${name}.lock`), new Date(Date.now() - 5_000), new Date(Date.now() - 5_000));
    await expect(w.run(async () => 'sent')).resolves.toBe('sent');
  });

  it('HostPacer: a window per key, each site its own budget, a budget of 0 sends at once', async () => {
    const budget = siteBudget(1, { 'site-b': 0 });
    expect(siteOfKey('POST /m2m/sites/site%20a/chat/async')).toBe('site a');
    expect(budget('POST /m2m/sites/site-a/chat/async')).toBe(1);
    expect(budget('POST /m2m/sites/site-b/chat/async')).toBe(0);
    const pacer = new HostPacer(dir, 'https://api', budget, 600_000);
    await pacer.run('POST /m2m/sites/site-a/chat/async', async () => 1);
    // Another path, and another site, have their own budgets: none of these waits for the 10-minute window.
    await expect(pacer.run('POST /m2m/sites/site-a/chat/feedback', async () => 2)).resolves.toBe(2);
    await expect(pacer.run('POST /m2m/sites/site-c/chat/async', async () => 3)).resolves.toBe(3);
    await Promise.all(Array.from({ length: 5 }, () => pacer.run('POST /m2m/sites/site-b/chat/async', async () => 4)));
  });
});
