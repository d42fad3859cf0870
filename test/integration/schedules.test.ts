import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CleanupReport } from '../../src/cleanup';
import { scheduleAction } from '../../src/cli/commands/schedule/action';
import type { ScheduleOp } from '../../src/cli/commands/schedule/flags';
import type { Logger } from '../../src/cli/logger';
import type { ScheduleDetails, ScheduleView } from '../../src/schedules';
import { DEMO } from '../../src/sim/constants';
import type { RunInput, RunResult } from '../../src/domain/run';
import { historyText } from '../helpers/history';
import { pointCliAt, startStack, type Stack } from '../helpers/stack';

const DAY = 86_400_000;
let stack: Stack;
let dir: string;
let dataset: string;

async function sitechat(request: ScheduleOp): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log: Logger = {
    info: (l) => void err.push(l), warn: (l) => void err.push(`warning: ${l}`), error: (l) => void err.push(`error: ${l}`),
    debug: () => undefined, out: (t) => void out.push(t),
  };
  const code = await scheduleAction(request, { log });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('Temporal Schedules for nightly runs and cleanups (real dev server + simulator)', () => {
  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    stack = await startStack(__filename);
    await stack.startWorkers();
    dir = mkdtempSync(join(tmpdir(), 'sitechat-schedules-'));
    dataset = join(dir, 'nightly.csv');
    writeFileSync(dataset, [
      'question,must_include',
      'How much does the Personal plan cost?,$9.99',
      'How much storage do I get for free?,5 GB',
      'Can I get a refund for my annual subscription?,14 days',
    ].join('\n'));
    restoreEnv = pointCliAt(stack);
  });
  afterAll(async () => {
    restoreEnv();
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('nightly: create, describe, list, trigger → the evaluation run completes; pause, unpause, delete', async () => {
    const created = await sitechat({
      op: 'create-nightly',
      flags: { cron: '0 2 * * *', dataset, id: 'nightly-test', baseline: 'latest', failUnder: '0.5', concurrency: '3', answerTimeout: '30s', json: true },
    });
    expect(created.code).toBe(0);
    const details = JSON.parse(created.out) as ScheduleDetails;
    const input = details.input as RunInput;
    expect(details).toMatchObject({
      id: 'nightly-test', kind: 'nightly', cron: '0 2 * * *', workflowType: 'evaluationRun', taskQueue: 'sitechat-runner',
      workflowId: 'sitechat-evaluation-nightly-test', overlap: 'SKIP', catchupWindowMs: 3_600_000, pauseOnFailure: false, paused: false,
    });
    expect(input).toMatchObject({ kind: 'evaluation', runId: '', dataset: { path: dataset, sha256: '' } });
    expect(input.options).toMatchObject({ siteId: DEMO.siteId, baseline: 'latest', failUnder: 0.5, concurrency: 3, answerTimeoutMs: 30_000 });
    expect(details.nextRuns[0]).toMatch(/T02:00:00\.000Z$/);
    expect(created.out).not.toContain(DEMO.apiKey);

    const described = await sitechat({ op: 'describe', id: 'nightly-test', flags: {} });
    expect(described.out).toMatch(/cron +0 2 \* \* \* \(UTC\)/);
    // The line's wording is pinned in test/unit/schedules/format.test.ts; here, that it names what the schedule runs.
    const runs = /runs +(.*)/u.exec(described.out)?.[1];
    expect(runs?.split(', ')).toEqual([`dataset ${dataset}`, 'site demo-site', 'concurrency 3', 'baseline latest', 'fail under 0.5', 'confirm 2']);
    const listed = await eventually(() => sitechat({ op: 'list', flags: { json: true } }), (r) => r.out.includes('nightly-test'));
    expect((JSON.parse(listed.out) as ScheduleView[]).find((v) => v.id === 'nightly-test')).toMatchObject({ kind: 'nightly', siteId: DEMO.siteId });

    const triggered = await sitechat({ op: 'trigger', id: 'nightly-test', flags: { json: true } });
    expect(triggered.code).toBe(0);
    const { workflowId } = JSON.parse(triggered.out) as { workflowId: string };
    expect(workflowId).toMatch(/^sitechat-evaluation-nightly-test-\d{4}-\d{2}-\d{2}T/);
    const result = (await stack.client.workflow.getHandle(workflowId).result()) as RunResult;
    expect(result.runId).toMatch(/^nightly-test-\d{4}-\d{2}-\d{2}T\d{6}Z$/);
    expect(result.summary.total).toBe(3);
    expect(result.summary.passed + result.summary.failed + result.summary.error + result.summary.timedOut).toBe(3);
    expect(existsSync(join(result.reportDir, 'summary.json'))).toBe(true);
    expect(await historyText(stack.client, workflowId)).not.toContain(DEMO.apiKey);

    expect((await sitechat({ op: 'pause', id: 'nightly-test', flags: { note: 'release freeze' } })).code).toBe(0);
    const paused = JSON.parse((await sitechat({ op: 'describe', id: 'nightly-test', flags: { json: true } })).out) as ScheduleDetails;
    expect(paused).toMatchObject({ paused: true, note: 'release freeze', actionsTaken: 1 });
    expect(paused.recentRuns.map((r) => r.workflowId)).toEqual([workflowId]);
    expect((await sitechat({ op: 'unpause', id: 'nightly-test', flags: {} })).code).toBe(0);
    expect((await sitechat({ op: 'delete', id: 'nightly-test', flags: {} })).code).toBe(0);
    const gone = await sitechat({ op: 'describe', id: 'nightly-test', flags: {} });
    expect(gone.code).toBe(3);
    expect(gone.err).toMatch(/no schedule "nightly-test"/);
  });

  it('cleanup: a triggered run closes the idle sessions; policies are as asked', async () => {
    stack.sim.reset(); // the nightly run's sessions are gone
    const now = Date.now();
    for (let i = 0; i < 12; i++) stack.sim.simulator.sessions.create(DEMO.siteId, `idle-${i}`, 'ana@example.com', now - 3 * DAY);
    for (let i = 0; i < 4; i++) stack.sim.simulator.sessions.create(DEMO.siteId, `fresh-${i}`, 'ana@example.com', now);
    const created = await sitechat({
      op: 'create-cleanup',
      flags: { cron: '30 3 * * 1', timezone: 'Europe/Berlin', idleFor: '2d', overlap: 'buffer-one', catchupWindow: '15m', pauseOnFailure: true, json: true },
    });
    expect(created.code).toBe(0);
    const details = JSON.parse(created.out) as ScheduleDetails;
    expect(details).toMatchObject({
      id: 'cleanup-demo-site', kind: 'cleanup', workflowType: 'sessionCleanup', timezone: 'Europe/Berlin',
      overlap: 'BUFFER_ONE', catchupWindowMs: 900_000, pauseOnFailure: true, input: { siteId: DEMO.siteId, idleForMs: 2 * DAY },
    });
    const triggered = await sitechat({ op: 'trigger', id: 'cleanup-demo-site', flags: { json: true } });
    const { workflowId } = JSON.parse(triggered.out) as { workflowId: string };
    expect(workflowId).toMatch(/^sitechat-cleanup-cleanup-demo-site-/);
    const report = (await stack.client.workflow.getHandle(workflowId).result()) as CleanupReport;
    expect(report.counts).toMatchObject({ listed: 16, matched: 12, closed: 12, failed: 0 });
    expect(existsSync(report.reportPath as string)).toBe(true);
    expect((await sitechat({ op: 'create-cleanup', flags: { cron: '0 4 * * *' } })).code).toBe(3); // same id exists
    expect((await sitechat({ op: 'delete', id: 'cleanup-demo-site', flags: {} })).code).toBe(0);
  });

  it('usage errors exit 2 before anything is created', async () => {
    const bad = async (flags: Record<string, unknown>, op: 'create-nightly' | 'create-cleanup' = 'create-nightly') =>
      (await sitechat({ op, flags: { cron: '0 2 * * *', dataset, ...flags } } as ScheduleOp));
    expect((await bad({ cron: 'every night' })).code).toBe(2);
    expect((await bad({ cron: '99 2 * * *', id: 'bad-minute' })).code).toBe(2);
    expect((await bad({ overlap: 'sometimes' })).code).toBe(2);
    expect((await bad({ catchupWindow: '1s' })).code).toBe(2);
    expect((await bad({ timezone: 'Mars/Olympus' })).code).toBe(2);
    expect((await bad({ id: 'has space' })).code).toBe(2);
    expect((await bad({ dataset: join(dir, 'missing.csv') })).code).toBe(2);
    expect((await bad({ failUnder: '150%' })).code).toBe(2);
    expect((await bad({ idleFor: 'soon' }, 'create-cleanup')).code).toBe(2);
    const list = await eventually(() => sitechat({ op: 'list', flags: { json: true } }), () => true);
    expect((JSON.parse(list.out) as ScheduleView[]).map((v) => v.id)).not.toContain('bad-minute');
  });
});
