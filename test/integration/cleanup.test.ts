import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { CLEANUP_WORKFLOW_TYPE, type CleanupInput, type CleanupReport } from '../../src/cleanup';
import { cleanupAction } from '../../src/cli/commands/cleanup/action';
import type { CleanupCommandFlags } from '../../src/cli/commands/cleanup/action';
import type { Logger } from '../../src/cli/logger';
import { DEMO } from '../../src/sim/constants';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { startWorkflow } from '../../workflows/starts';
import { PAGES_PER_RUN } from '../../workflows/cleanup';
import { historyLength, historyText } from '../helpers/history';
import { startStack, type Stack } from '../helpers/stack';

const DAY = 86_400_000;
let stack: Stack;
let proxy: { server: Server; baseUrl: string; hideClosed: boolean };

/**
 * A proxy in front of the simulator that can list only open sessions, as a server might: closing a session then
 * shifts every later one to a lower offset, and plain offset paging skips sessions.
 */
async function startProxy(target: string): Promise<typeof proxy> {
  const state = { hideClosed: false } as typeof proxy;
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void (async () => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const headers = { 'x-api-key': String(req.headers['x-api-key'] ?? ''), 'content-type': 'application/json' };
      if (state.hideClosed && req.method === 'GET' && url.pathname.endsWith('/sessions')) {
        const all: { closed_at: string | null }[] = [];
        for (let offset = 0; ; offset += 500) {
          const r = await request(`${target}${url.pathname}?limit=500&offset=${offset}`, { headers });
          const body = (await r.body.json()) as { sessions: { closed_at: string | null }[] };
          all.push(...body.sessions);
          if (body.sessions.length < 500) break;
        }
        const open = all.filter((s) => s.closed_at === null);
        const limit = Number(url.searchParams.get('limit') ?? 50);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sessions: open.slice(offset, offset + limit), pagination: { limit, offset, total: open.length } }));
        return;
      }
      const r = await request(`${target}${url.pathname}${url.search}`, {
        method: req.method as 'GET' | 'POST', headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(r.statusCode, { 'content-type': 'application/json' });
      res.end(await r.body.text());
    })());
  });
  await new Promise<void>((r) => state.server.listen(0, '127.0.0.1', r));
  state.baseUrl = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/api/v1`;
  return state;
}

/** Sessions straight into the simulator's state (test fixture): `idleDays` old, newest last. */
function seed(n: number, prefix: string, o: { idleDays: number; ageDays?: number; email?: string; site?: string }): string[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => {
    const s = stack.sim.simulator.sessions.create(o.site ?? DEMO.siteId, `${prefix}-${i}`, o.email ?? `user${i % 7}@example.com`, now - (o.ageDays ?? o.idleDays) * DAY);
    s.updatedAt = now - o.idleDays * DAY;
    return s.id;
  });
}

function closedIds(site: string = DEMO.siteId): Set<string> {
  const { sessions } = stack.sim.simulator.sessions.list(site, undefined, 1e9, 0);
  return new Set(sessions.filter((s) => s.closedAt !== null).map((s) => s.id));
}

let n = 0;
async function cleanup(input: Partial<CleanupInput>): Promise<{ report: CleanupReport; workflowId: string; firstRunId: string }> {
  const workflowId = `sitechat-cleanup-t${Date.now()}-${n++}`;
  const handle = await startWorkflow(stack.client, CLEANUP_WORKFLOW_TYPE, {
    taskQueue: TaskQueue.main, workflowId, args: [{ siteId: DEMO.siteId, idleForMs: 7 * DAY, ...input } satisfies CleanupInput],
  });
  return { report: await handle.result(), workflowId, firstRunId: handle.firstExecutionRunId };
}

function capture(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const push = (prefix: string) => (line: string) => void lines.push(prefix + line);
  return { log: { info: push(''), warn: push('warning: '), error: push('error: '), debug: () => undefined, out: push('') }, text: () => lines.join('\n') };
}

describe('sessionCleanup (real Temporal + simulator over HTTP)', () => {
  const saved = { ...process.env };
  beforeAll(async () => {
    stack = await startStack(__filename);
    proxy = await startProxy(stack.sim.origin);
    await stack.startWorkers({ baseUrl: proxy.baseUrl });
    Object.assign(process.env, {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace,
      SITECHAT_BASE_URL: proxy.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId,
    });
  });
  afterAll(async () => {
    process.env = saved;
    await stack?.close();
    await new Promise<void>((r) => (proxy ? proxy.server.close(() => r()) : r()));
  });
  beforeEach(() => {
    stack.sim.reset();
    stack.sim.setFaults({});
    proxy.hideClosed = false;
  });

  it('closes exactly the idle active sessions over several pages, writes the report, and a rerun closes nothing new', async () => {
    const idle = seed(1100, 'idle', { idleDays: 10 });
    seed(300, 'fresh', { idleDays: 1 });
    seed(50, 'gone', { idleDays: 30 }).forEach((id) => stack.sim.simulator.sessions.close(stack.sim.simulator.sessions.get(DEMO.siteId, id)!, Date.now()));
    seed(20, 'other', { idleDays: 30, site: DEMO.otherSiteId });

    const { report, workflowId } = await cleanup({});
    expect(report.counts).toEqual({ listed: 1450, relisted: 0, matched: 1100, closed: 1100, alreadyClosed: 50, failed: 0, unreadable: 0, notMatched: 300, overMax: 0 });
    expect(report).toMatchObject({ pages: 3, passes: 1, complete: true, dryRun: false });
    const closed = closedIds();
    expect(idle.every((id) => closed.has(id))).toBe(true);
    expect(closed.size).toBe(1150);
    expect(closedIds(DEMO.otherSiteId).size).toBe(0);

    expect(report.reportPath).toBe(join(stack.runsDir, `cleanup-${workflowId.replace('sitechat-cleanup-', '')}.json`));
    expect((JSON.parse(readFileSync(report.reportPath as string, 'utf8')) as CleanupReport).counts.closed).toBe(1100);
    const history = await historyText(stack.client, workflowId);
    expect(history).not.toContain(DEMO.apiKey);
    expect(await historyLength(stack.client, workflowId)).toBeLessThan(200);

    const again = await cleanup({});
    expect(again.report.counts).toMatchObject({ matched: 0, closed: 0, alreadyClosed: 1150 });
    expect(stack.sim.stats().requests['sessions.close']?.['200']).toBe(1100);
  });

  it('dry run: selects and reports, closes nothing', async () => {
    seed(30, 'idle', { idleDays: 8 });
    seed(10, 'fresh', { idleDays: 2 });
    const { report } = await cleanup({ dryRun: true, sampleSize: 5 });
    expect(report.counts).toMatchObject({ listed: 40, matched: 30, closed: 0 });
    expect(report.samples).toHaveLength(5);
    expect(closedIds().size).toBe(0);
  });

  it('email filter, created-before and max combine', async () => {
    seed(10, 'ana-old', { idleDays: 10, ageDays: 40, email: 'ana@example.com' });
    seed(10, 'ana-new', { idleDays: 10, ageDays: 10, email: 'ana@example.com' });
    seed(10, 'bob-old', { idleDays: 10, ageDays: 40, email: 'bob@example.com' });
    const createdBefore = new Date(Date.now() - 30 * DAY).toISOString();
    const { report } = await cleanup({ email: 'ANA@example.com', idleForMs: undefined, createdBefore });
    expect(report.counts).toMatchObject({ listed: 20, matched: 10, closed: 10 });
    expect([...closedIds()].every((id) => id.startsWith('ana-old'))).toBe(true);
    const capped = await cleanup({ idleForMs: 0, max: 4 });
    expect(capped.report).toMatchObject({ stoppedBy: 'max', counts: { matched: 4, closed: 4 } });
  });

  it('a server that hides closed sessions makes offset paging skip: the re-list pass closes the rest', async () => {
    proxy.hideClosed = true;
    const idle = seed(250, 'idle', { idleDays: 10 });
    const { report } = await cleanup({ pageSize: 50 });
    const closed = closedIds();
    expect(idle.every((id) => closed.has(id))).toBe(true);
    expect(report.passes).toBeGreaterThanOrEqual(2);
    expect(report.counts).toMatchObject({ matched: 250, closed: 250, failed: 0 });
  });

  it('sessions created while it pages: every idle session closed, no new one touched', async () => {
    const idle = seed(300, 'idle', { idleDays: 10 });
    stack.sim.setFaults({ 'sessions.list': { extraLatencyMs: 150 } });
    let k = 0;
    const adder = setInterval(() => seed(5, `new${k++}`, { idleDays: 0 }), 50);
    const { report } = await cleanup({ pageSize: 40 }).finally(() => clearInterval(adder));
    const closed = closedIds();
    expect(idle.every((id) => closed.has(id))).toBe(true);
    expect([...closed].some((id) => id.startsWith('new'))).toBe(false);
    expect(report.counts.closed).toBe(300);
    expect(report.passes).toBeGreaterThanOrEqual(2);
  });

  it(`continues as new after ${PAGES_PER_RUN} pages; a 100k-session site keeps every run's history small`, async () => {
    seed(100_000, 'big', { idleDays: 10 });
    const { report, workflowId, firstRunId } = await cleanup({ dryRun: true });
    expect(report.counts).toMatchObject({ listed: 100_000, matched: 100_000 });
    expect(report.pages).toBe(200);
    const first = await stack.client.workflow.getHandle(workflowId, firstRunId).fetchHistory();
    const events = first.events ?? [];
    expect(events.length).toBeLessThan(400);
    expect(events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
    expect(JSON.stringify(report).length).toBeLessThan(20_000);
  });

  it('an unknown site fails with the API reason, after writing the report', async () => {
    const err = await cleanup({ siteId: 'no-such-site' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const message = (err as WorkflowFailedError).cause?.message ?? '';
    expect(message).toMatch(/404 site not found/);
    const path = /report: (\S+)\)/.exec(message)?.[1] ?? '';
    expect(existsSync(path)).toBe(true);
  });

  describe('sitechat cleanup (CLI)', () => {
    const run = async (flags: Partial<CleanupCommandFlags>) => {
      const c = capture();
      const code = await cleanupAction({ worker: false, ...flags }, { log: c.log });
      return { code, text: c.text() };
    };

    it('prints the summary and exits 0; a dry run lists what it would close, capped, with the count', async () => {
      seed(45, 'idle', { idleDays: 9 });
      const dry = await run({ dryRun: true, idleFor: '7d' });
      expect(dry.code).toBe(0);
      expect(dry.text).toMatch(/Dry run of the session cleanup of site demo-site/);
      // The line's wording is pinned in test/unit/cleanup/report.test.ts; here its counts, which add up.
      const [listed, matched, closed, other] = (/listed +(\d+) .*: (\d+) matched .*, (\d+) already closed, (\d+) did not match/.exec(dry.text) ?? []).slice(1).map(Number);
      expect([matched, closed]).toEqual([45, 0]);
      expect(listed).toBe(45 + 0 + (other ?? NaN));
      expect(dry.text).toContain('(would be closed)');
      expect(dry.text).toMatch(/Would close:\n( {2}idle-\d+ .*\n){20} {2}… and 25 more/);
      expect(closedIds().size).toBe(0);
      const real = await run({});
      expect(real.code).toBe(0);
      expect(real.text).toMatch(/: 45 matched and closed, /);
      expect(real.text).toMatch(/Report: .*cleanup-.*\.json/);
    });

    it('--json prints the report; bad flags exit 2', async () => {
      seed(3, 'idle', { idleDays: 9 });
      const json = await run({ json: true, idleFor: '1d' });
      expect(json.code).toBe(0);
      expect(json.text).toMatch(/"closed": 3/);
      expect((await run({ idleFor: '7' })).code).toBe(2);
      expect((await run({ createdBefore: 'last week' })).code).toBe(2);
    });

    it('--site a,b cleans every site at once: a report each, exit 3 when one site fails; a bad list exits 2', async () => {
      seed(3, 'idle', { idleDays: 9 });
      const r = await run({ site: `${DEMO.siteId},no-such-site`, idleFor: '1d' });
      expect(r.code).toBe(3);
      expect(r.text).toMatch(/session cleanup of site demo-site[\s\S]*: 3 matched and closed, /);
      expect(r.text).toMatch(/site no-such-site: .*404 site not found/);
      expect(closedIds().size).toBe(3);
      const bad = await run({ site: `${DEMO.siteId},,x` });
      expect(bad.code).toBe(2);
      expect(bad.text).toMatch(/--site .*site 2 of 3 is empty/);
    });

    it('a revoked key on the workers: exit 3 with the 401 reason', async () => {
      seed(3, 'idle', { idleDays: 9 });
      await stack.workers?.shutdown();
      await stack.startWorkers({ baseUrl: proxy.baseUrl, apiKey: DEMO.revokedKey });
      const r = await run({});
      expect(r.code).toBe(3);
      expect(r.text).toMatch(/401 invalid_api_key/);
      expect(r.text).not.toContain(DEMO.revokedKey);
    });
  });
});
