import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scheduleAction } from '../../src/cli/commands/schedule/action';
import type { Logger } from '../../src/cli/logger';
import type { CleanupInput, CleanupReport } from '../../src/cleanup/types';
import { outcomeLine, type NotifyOutcome } from '../../src/domain/notify';
import { CLEANUP_WORKFLOW_TYPE } from '../../src/cleanup/workflow';
import { sha256File } from '../../src/datasets';
import type { WebhookPayload } from '../../src/notify/webhook';
import type { SlackMessage } from '../../src/notify/slack';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import { refreshRun } from '../../src/review/refresh';
import { DEMO } from '../../src/sim/constants';
import { demoFixturesWithSites } from '../../src/sim/siteCopies';
import { startWorkflow } from '../../workflows/starts';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { MULTI_SITE_WORKFLOW_TYPE } from '../../workflows/multiSiteSignals';
import type { MultiSiteInput, MultiSiteResult } from '../../src/domain/multiSite';
import type { RunResult } from '../../src/domain/run';
import { historyText } from '../helpers/history';
import { expressNotFound, Receiver } from '../helpers/receiver';
import { notificationItems } from '../helpers/reportSections';
import { defaultOptions, startRun, writeDataset } from '../helpers/runs';
import { pointCliAt, startStack, type Stack } from '../helpers/stack';

const SECRET = 'notify-signing-secret-4f1c9a7e';
/** The part of the webhook URLs that makes them secret (Slack's are /services/T…/B…/<token>). */
const TOKEN = 'hook-path-token-9b2d6e';
const SITE_2 = 'demo-site-2';
const HOOK = { kind: 'webhook' as const, urlEnv: 'SITECHAT_TEST_HOOK_URL', secretEnv: 'SITECHAT_TEST_HOOK_SECRET' };
const SLACK = { kind: 'slack' as const, urlEnv: 'SITECHAT_TEST_SLACK_URL' };
const TEAMS = { kind: 'teams' as const, urlEnv: 'SITECHAT_TEST_TEAMS_URL' };

/** Two rows that pass and one that always fails: pass rate 2/3, so --fail-under 0.5 passes and 0.9 fails. */
const ROWS = [
  'How much does the Personal plan cost?,$9.99',
  'How much storage do I get for free?,5 GB',
  'How much storage do I get for free?,a phrase no answer contains',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

function webhookPayloads(receiver: Receiver, since = 0): WebhookPayload[] {
  return receiver.received.slice(since).filter((r) => r.path.startsWith('/hook')).map((r) => r.json as WebhookPayload);
}

describe('notifications when a run, a scheduled run, a multi-site run or a cleanup ends (real Temporal, simulator, local receiver)', () => {
  let stack: Stack;
  const receiver = new Receiver(SECRET);
  const saved = { ...process.env };
  let dataset: string;
  const workflowIds: string[] = [];

  beforeAll(async () => {
    const base = await receiver.start();
    // The in-process workers read the URLs and the secret from this process's environment, as a worker does.
    Object.assign(process.env, {
      [HOOK.urlEnv]: `${base}/hook/${TOKEN}`, [HOOK.secretEnv]: SECRET, [SLACK.urlEnv]: `${base}/slack/${TOKEN}`, [TEAMS.urlEnv]: `${base}/teams/${TOKEN}`,
      SITECHAT_REPORT_BASE_URL: 'https://reports.example.com/runs/',
    });
    stack = await startStack(__filename, { fixtures: demoFixturesWithSites([DEMO.siteId, SITE_2]) });
    await stack.startWorkers();
    dataset = writeDataset(stack, 'question,must_include', ROWS);
  });
  afterAll(async () => {
    await stack?.close();
    await receiver.close();
    process.env = saved;
  });
  beforeEach(() => {
    receiver.reply = () => ({ status: 200 });
  });

  async function run(failUnder: number): Promise<RunResult> {
    const handle = await startRun(stack, dataset, { failUnder, baseline: 'latest', notify: { destinations: [HOOK, SLACK], on: ['failed', 'recovered'] } });
    workflowIds.push(handle.workflowId, `${handle.workflowId}/chunk-0`);
    return (await handle.result()) as RunResult;
  }

  it('notifies a failed run, then `recovered` only for the pass after it; signed, once per destination, the verdict unchanged', async () => {
    const before = receiver.received.length;
    const first = await run(0.5);
    expect(first.summary.gate?.verdict).toBe('passed');
    expect(first.notifications?.map((n) => n.status)).toEqual(['not_sent', 'not_sent']);
    expect(receiver.received.length).toBe(before);

    const failed = await run(0.9);
    expect(failed.summary.gate?.verdict).toBe('failed');
    expect(failed.notifications?.map((n) => [n.status, n.trigger])).toEqual([['delivered', 'failed'], ['delivered', 'failed']]);
    const sent = receiver.received.slice(before);
    expect(sent.map((r) => r.path.split('/')[1]).sort()).toEqual(['hook', 'slack']);
    const hook = sent.find((r) => r.path.startsWith('/hook'));
    expect(hook?.verified).toBe(true);
    const payload = hook?.json as WebhookPayload;
    expect(payload).toMatchObject({ version: 2, event: 'run', trigger: 'failed', verdict: 'failed', runId: failed.runId, sites: [DEMO.siteId], passRate: 2 / 3, test: false });
    expect(payload.deliveryId).toBe(hook?.deliveryId);
    expect(payload.reasons.length).toBeGreaterThan(0);
    expect(payload.reasons.join(' ')).toMatch(/below/u);
    expect(payload.baseline?.runId).toBe(first.runId);
    expect(payload.reportUrl).toBe(`https://reports.example.com/runs/${failed.runId}/report.html`);
    expect(payload.dataset?.path).toBe(dataset);
    const slack = sent.find((r) => r.path.startsWith('/slack'))?.json as SlackMessage;
    expect(slack.blocks[0]?.type).toBe('header');
    expect(JSON.stringify(slack)).toContain('FAILED');
    // Shown in the report; a failed gate stays failed, a delivered notification changes nothing.
    expect(failed.notifications).toEqual([
      expect.objectContaining({ destination: 'webhook (SITECHAT_TEST_HOOK_URL)', status: 'delivered', trigger: 'failed', deliveryId: hook?.deliveryId }),
      expect.objectContaining({ destination: 'slack (SITECHAT_TEST_SLACK_URL)', status: 'delivered', trigger: 'failed' }),
    ]);
    const lines = failed.notifications?.map(outcomeLine);
    expect(notificationItems(readFileSync(join(failed.reportDir, 'report.md'), 'utf8'))).toEqual(lines);
    expect(JSON.parse(readFileSync(join(failed.reportDir, 'notifications.json'), 'utf8'))).toEqual(failed.notifications);
    // A review save renders the run's reports again from the store (refreshRun): the section stays.
    expect(join(stack.runsDir, failed.runId)).toBe(failed.reportDir);
    await refreshRun(new FileResultsStore(stack.runsDir), failed.runId, { runsDir: stack.runsDir });
    expect(notificationItems(readFileSync(join(failed.reportDir, 'report.md'), 'utf8'))).toEqual(lines);
    expect(JSON.parse(readFileSync(join(failed.reportDir, 'notifications.json'), 'utf8'))).toEqual(failed.notifications);

    const mark = receiver.received.length;
    const recovered = await run(0.5);
    expect(recovered.summary.gate?.verdict).toBe('passed');
    expect(webhookPayloads(receiver, mark).map((p) => [p.trigger, p.runId])).toEqual([['recovered', recovered.runId]]);

    const mark2 = receiver.received.length;
    const again = await run(0.5);
    expect(again.notifications?.map((n) => n.status)).toEqual(['not_sent', 'not_sent']);
    expect(receiver.received.length).toBe(mark2);
  });

  it('a refused notification (4xx) is listed as failed in the result and the report, and the verdict does not change', async () => {
    receiver.reply = (r) => (r.path.startsWith('/slack') ? { status: 403, body: 'invalid_token' } : { status: 200 });
    const result = await run(0.9);
    expect(result.summary.gate?.verdict).toBe('failed');
    const slack = result.notifications?.find((n) => n.kind === 'slack');
    expect(slack).toMatchObject({ status: 'failed', error: 'HTTP 403 Forbidden: invalid_token' });
    expect(notificationItems(readFileSync(join(result.reportDir, 'report.md'), 'utf8'))).toContain(outcomeLine(slack as NotifyOutcome));
  });

  it('429 and 5xx are retried after the Retry-After until delivered, or recorded as failed after the last attempt', async () => {
    const teamsCalls = (): number => receiver.received.filter((r) => r.path.startsWith('/teams')).length;
    const before = teamsCalls();
    // Teams: 503 twice, then 200. Slack: 429 every time, so it runs out of attempts.
    receiver.reply = (r) => {
      if (r.path.startsWith('/slack')) return { status: 429, headers: { 'Retry-After': '1' }, body: 'rate_limited' };
      if (r.path.startsWith('/teams') && teamsCalls() - before <= 2) return { status: 503, headers: { 'Retry-After': '1' } };
      return { status: 200 };
    };
    const handle = await startRun(stack, dataset, { failUnder: 0.9, notify: { destinations: [TEAMS, SLACK], on: ['failed'] } });
    workflowIds.push(handle.workflowId);
    const result = (await handle.result()) as RunResult;
    expect(result.summary.gate?.verdict).toBe('failed');
    expect(result.notifications?.[0]).toMatchObject({ kind: 'teams', status: 'delivered', attempts: 3 });
    expect(result.notifications?.[1]).toMatchObject({ kind: 'slack', status: 'failed', attempts: 8 });
    expect(result.notifications?.[1]?.error).toBe('HTTP 429 Too Many Requests: rate_limited (gave up after 8 attempts)');
    expect(teamsCalls() - before).toBe(3);
    const card = receiver.received.filter((r) => r.path.startsWith('/teams')).at(-1)?.json as { type: string; attachments: { contentType: string }[] };
    expect(card.type).toBe('message');
    expect(card.attachments[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
  });

  it('a receiver that quotes the URL\'s path leaves only its status in the outcome, the report and the history', async () => {
    // A 500 that quotes the request line (retried), then Express's 404 page (refused): both hold the secret path.
    let calls = 0;
    receiver.reply = (r) => (r.path.startsWith('/hook') && calls++ === 0 ? { status: 500, headers: { 'Retry-After': '0' }, body: `POST ${r.path} failed` } : expressNotFound(r));
    const handle = await startRun(stack, dataset, { failUnder: 0.9, notify: { destinations: [HOOK], on: ['failed'] } });
    workflowIds.push(handle.workflowId);
    const result = (await handle.result()) as RunResult;
    expect(calls).toBe(2);
    expect(result.notifications).toEqual([expect.objectContaining({ status: 'failed', error: 'HTTP 404 Not Found', attempts: 2 })]);
    const text = [await historyText(stack.client, handle.workflowId), readFileSync(join(result.reportDir, 'report.md'), 'utf8'), readFileSync(join(result.reportDir, 'notifications.json'), 'utf8')].join('\n');
    expect(text).toContain('HTTP 404 Not Found');
    for (const part of [TOKEN, 'Cannot POST', 'POST /hook']) expect(text).not.toContain(part);
  });

  it('a run that stops on a fatal error (an unknown site) still notifies, and its failure carries the outcomes', async () => {
    const mark = receiver.received.length;
    const handle = await startRun(stack, dataset, { siteId: 'no-such-site', notify: { destinations: [HOOK], on: ['failed'] } });
    workflowIds.push(handle.workflowId);
    const err: unknown = await handle.result().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe('RunAborted');
    expect(cause.details?.[0]).toMatchObject({ notifications: [{ status: 'delivered', trigger: 'failed' }] });
    const [payload] = webhookPayloads(receiver, mark);
    expect(payload).toMatchObject({ verdict: 'failed', sites: ['no-such-site'] });
    expect(payload?.counts.error).toBe(3);
    expect(payload?.errors[0]?.count).toBe(3);
  });

  it('a multi-site run notifies once for all its sites; its sites do not notify', async () => {
    const runId = `ms-notify-${Date.now()}`;
    const input: MultiSiteInput = {
      kind: 'evaluation', runId, sites: [DEMO.siteId, SITE_2], dataset: { path: dataset, sha256: await sha256File(dataset) },
      options: { ...defaultOptions, siteId: `${DEMO.siteId},${SITE_2}`, failUnder: 0.9, notify: { destinations: [HOOK], on: ['always'] } },
    };
    const mark = receiver.received.length;
    const handle = await startWorkflow(stack.client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
    workflowIds.push(handle.workflowId);
    const result = (await handle.result()) as MultiSiteResult;
    const payloads = webhookPayloads(receiver, mark);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]).toMatchObject({ event: 'multi_site_run', runId, sites: [DEMO.siteId, SITE_2], verdict: 'failed', trigger: 'always' });
    expect(result.notifications?.[0]?.status).toBe('delivered');
  });

  it('a cleanup notifies when it ends', async () => {
    const mark = receiver.received.length;
    const workflowId = `sitechat-cleanup-notify-${Date.now()}`;
    const input: CleanupInput = { siteId: DEMO.siteId, idleForMs: 0, notify: { destinations: [HOOK], on: ['always'] } };
    const handle = await startWorkflow(stack.client, CLEANUP_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId, args: [input] });
    workflowIds.push(workflowId);
    const report = (await handle.result()) as CleanupReport;
    expect(report.notifications?.[0]).toMatchObject({ status: 'delivered', trigger: 'always' });
    expect(webhookPayloads(receiver, mark)).toEqual([expect.objectContaining({ event: 'cleanup', verdict: 'passed', sites: [DEMO.siteId] })]);
  });

  it('a schedule-triggered run notifies, with the names in the schedule and the URLs only in the worker', async () => {
    const restore = pointCliAt(stack);
    const lines: string[] = [];
    const log: Logger = { info: (l) => void lines.push(l), warn: (l) => void lines.push(l), error: (l) => void lines.push(l), debug: () => undefined, out: (l) => void lines.push(l) };
    try {
      const mark = receiver.received.length;
      const id = `notify-nightly-${Date.now()}`;
      const created = await scheduleAction({
        op: 'create-nightly',
        flags: { dataset, cron: '0 2 * * *', id, site: DEMO.siteId, paused: true, failUnder: '0.9', notify: [`webhook:${HOOK.urlEnv}:${HOOK.secretEnv}`], notifyOn: 'always' },
      }, { log });
      expect(created, lines.join('\n')).toBe(0);
      expect(await scheduleAction({ op: 'trigger', id, flags: {} }, { log })).toBe(0);
      const payload = await receiver.next(mark);
      expect(payload.path.startsWith('/hook')).toBe(true);
      expect(payload.verified).toBe(true);
      const body = payload.json as WebhookPayload;
      expect(body).toMatchObject({ event: 'run', verdict: 'failed', trigger: 'always' });
      expect(body.workflowId.startsWith(`sitechat-evaluation-${id}`)).toBe(true);
      workflowIds.push(body.workflowId);
      const description = await stack.client.schedule.getHandle(id).describe();
      const action = JSON.stringify(description.action);
      expect(action).toContain(HOOK.urlEnv);
      expect(action).not.toContain(TOKEN);
      expect(action).not.toContain(SECRET);
      await stack.client.schedule.getHandle(id).delete();
      await stack.client.workflow.getHandle(body.workflowId).result();
    } finally {
      restore();
    }
  });

  it('the webhook URLs and the secret are nowhere: workflow histories, reports, the results store', async () => {
    expect(workflowIds.length).toBeGreaterThan(8);
    for (const id of workflowIds) {
      const text = await historyText(stack.client, id).catch(() => '');
      if (text === '') continue;
      expect(text, id).not.toContain(TOKEN);
      expect(text, id).not.toContain(SECRET);
    }
    const histories = await Promise.all(workflowIds.slice(0, 2).map((id) => historyText(stack.client, id)));
    expect(histories.join('')).toContain(HOOK.urlEnv);
    const all = files(stack.runsDir);
    expect(all.some((f) => f.endsWith('notifications.json'))).toBe(true);
    expect(existsSync(join(stack.runsDir, '.notifications'))).toBe(true);
    for (const file of all) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(TOKEN);
      expect(text, file).not.toContain(SECRET);
    }
  });
});
