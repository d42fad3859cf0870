import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Endpoints } from '../../src/api/endpoints';
import { DEMO, Endpoint as SimEndpoint } from '../../src/sim/constants';
import type { RunResult } from '../../src/domain/run';
import { alertExpressions, dashboardExpressions, metricNamesIn, samples, servedNames, total } from '../helpers/promql';
import { startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { exited, spawnWorker } from '../helpers/workerProcess';

const JUDGE_KEY = 'sk-judge-metrics-SECRET-5e1c0b';
const HEADER = 'id,question,expected,rubric';
const QUESTIONS = [
  'How much does the Personal plan cost?,$9.99 per month,mentions $9.99 per month',
  'How much storage do I get for free?,The Free plan includes 5 GB of storage,mentions 5 GB of storage',
  'Can I get a refund for my annual subscription?,Annual plans are refunded within 14 days of purchase,mentions a refund within 14 days',
  'Which payment methods do you accept?,Only gold bars delivered by courier,mentions PayPal',
];
const ROWS = Array.from({ length: 12 }, (_, i) => `r${i + 1},${QUESTIONS[i % QUESTIONS.length]}`);

/** The simulator's endpoint names and the API client's endpoint templates (the `path` label) of the same routes. */
const ROUTES = [
  [SimEndpoint.sessionsList, Endpoints.listSessions],
  [SimEndpoint.sessionsClose, Endpoints.closeSession],
  [SimEndpoint.chatSync, Endpoints.chatSync],
  [SimEndpoint.chatAsync, Endpoints.chatAsync],
  [SimEndpoint.requestStatus, Endpoints.requestStatus],
  [SimEndpoint.feedback, Endpoints.feedback],
  [SimEndpoint.tenantLimits, Endpoints.tenantLimits],
] as const;

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
}

describe('worker metrics and JSON logs (a `sitechat worker` process, real Temporal, the simulator over HTTP)', () => {
  let stack: Stack;
  let worker: ChildProcess;
  let stderr = '';
  let metricsUrl: string;

  beforeAll(async () => {
    // The simulator enforces the API's 5 requests/s per path; the worker paces to it.
    stack = await startStack(__filename, { rateLimit: 5 });
    worker = spawnWorker(stack, {
      SITECHAT_METRICS_ADDR: '127.0.0.1:0',
      SITECHAT_LOG_FORMAT: 'json',
      SITECHAT_RATE_LIMIT: '5',
      SITECHAT_PACER_DIR: join(stack.runsDir, '.pacer'),
      SITECHAT_JUDGE_BASE_URL: stack.sim.judgeBaseUrl,
      SITECHAT_JUDGE_API_KEY: JUDGE_KEY,
      SITECHAT_JUDGE_MODEL: 'sim-judge',
    });
    worker.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    // The worker prints its endpoint (port 0: an ephemeral one), then polls.
    metricsUrl = await new Promise<string>((resolve, reject) => {
      const look = (): void => {
        const url = /"msg":"metrics at (http:\/\/[^ "]+\/metrics)/.exec(stderr)?.[1];
        if (url && stderr.includes('worker polling')) resolve(url);
      };
      worker.stderr?.on('data', look);
      worker.once('exit', (code) => reject(new Error(`sitechat worker exited (${code}) before polling:\n${stderr}`)));
    });
  });

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await exited(worker);
    }
    await stack?.close();
  });

  it('counts what the simulator saw, per path and status, with no 429; serves the SDK metrics; alerts and dashboard name served metrics', async () => {
    // Retried asks: failed attempts the SDK counts and logs.
    stack.sim.setFaults({ 'chat.async': { failRate: 0.4 } });
    const dataset = writeDataset(stack, HEADER, ROWS);
    const handle = await startRun(stack, dataset, { assertions: [{ type: 'llm-correctness' }] });
    const result = handle.result() as Promise<RunResult>;
    let finished = false;
    void result.then(() => (finished = true), () => (finished = true));

    // During the run: the endpoint answers and counts questions sent so far.
    let during = '';
    while (!finished && !/sitechat_api_requests_total\{[^}]*chat\/async/.test(during)) {
      during = await scrape(metricsUrl);
      await new Promise((resolve) => setTimeout(resolve, 100)); // a scrape interval, not a timing assertion
    }
    const { summary } = await result;
    expect(summary.total).toBe(ROWS.length);

    const text = await scrape(metricsUrl);
    const all = samples(text);
    const stats = stack.sim.stats();

    // Requests per path and status: exactly the simulator's own count of the responses it sent.
    for (const [name, endpoint] of ROUTES) {
      const byStatus = stats.requests[name] ?? {};
      for (const [status, count] of Object.entries(byStatus)) {
        expect(total(all, 'sitechat_api_requests_total', { method: endpoint.method, path: endpoint.path, status }), `${name} ${status}`).toBe(count);
      }
      const ours = all.filter((s) => s.name === 'sitechat_api_requests_total' && s.labels.path === endpoint.path);
      expect(ours.reduce((n, s) => n + s.value, 0), name).toBe(Object.values(byStatus).reduce((n, c) => n + c, 0));
    }
    expect(stats.requests[SimEndpoint.chatAsync]?.['500'], 'the injected faults happened').toBeGreaterThan(0);
    // Every sample is on the demo site, with a path template (never a filled-in id), and got a response.
    for (const s of all.filter((x) => x.name === 'sitechat_api_requests_total')) {
      expect(s.labels.site).toBe(DEMO.siteId);
      expect(ROUTES.map(([, e]) => e.path)).toContain(s.labels.path);
      expect(s.labels.status).not.toBe('none');
    }
    // 429s: none from the simulator, none counted.
    expect(stats.rateLimited).toBe(0);
    expect(total(all, 'sitechat_api_rate_limited_total')).toBe(0);
    expect(total(all, 'sitechat_api_requests_total', { status: '429' })).toBe(0);

    // Every call of the run waited for its turn in the pacer once.
    expect(total(all, 'sitechat_pacer_wait_seconds_count', { path: Endpoints.chatAsync.path })).toBe(total(all, 'sitechat_api_requests_total', { path: Endpoints.chatAsync.path }));
    // An answer latency per ask that returned (an attempt that threw is retried): every answered row has one.
    expect(total(all, 'sitechat_answer_latency_seconds_count', { result: 'completed' })).toBe(summary.passed + summary.failed + summary.uncertain);
    expect(total(all, 'sitechat_answer_latency_seconds_count')).toBeLessThanOrEqual(ROWS.length);
    expect(total(all, 'sitechat_asks_in_flight')).toBe(0);
    // Rows by outcome: the run's own summary.
    for (const outcome of ['passed', 'failed', 'error', 'uncertain'] as const) {
      expect(total(all, 'sitechat_rows_total', { site: DEMO.siteId, outcome }), outcome).toBe(summary[outcome]);
    }
    expect(total(all, 'sitechat_rows_total')).toBe(ROWS.length);
    // Feedback and closes: what the simulator recorded.
    expect(total(all, 'sitechat_feedback_total', { site: DEMO.siteId, result: 'ok' })).toBe(stats.feedback);
    expect(total(all, 'sitechat_session_closes_total', { site: DEMO.siteId, result: 'ok' })).toBe(stats.requests[SimEndpoint.sessionsClose]?.['200']);
    // Judge calls: one per verdict the simulator's judge route served, with the tokens it reported.
    expect(stats.judge.calls).toBeGreaterThan(0);
    expect(total(all, 'sitechat_judge_calls_total', { model: 'sim-judge', result: 'ok' })).toBe(stats.judge.calls);
    expect(total(all, 'sitechat_judge_tokens_total', { model: 'sim-judge' })).toBeGreaterThan(0);

    // The Temporal SDK's metrics come in the same scrape.
    const served = servedNames(text);
    for (const name of ['temporal_request', 'temporal_activity_execution_failed', 'temporal_worker_task_slots_available']) expect(served.has(name), name).toBe(true);
    // The shipped alert rules and dashboard name only metrics this worker served.
    for (const { alert, expr } of alertExpressions()) for (const name of metricNamesIn(expr)) expect(served.has(name), `${alert}: ${name}`).toBe(true);
    for (const { panel, expr } of dashboardExpressions()) for (const name of metricNamesIn(expr)) expect(served.has(name), `${panel}: ${name}`).toBe(true);

    // JSON logs: one object per line, never a key; the SDK's warnings name the run, workflow and activity.
    const lines = stderr.split('\n').filter((l) => l !== '');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(stderr).not.toContain(DEMO.apiKey);
    expect(stderr).not.toContain(JUDGE_KEY);
    const runId = handle.workflowId.replace(/^sitechat-evaluation-/, '');
    expect(entries).toContainEqual(expect.objectContaining({ source: 'worker', level: 'warn', runId, workflowId: expect.stringMatching(new RegExp(`^${handle.workflowId}/chunk-`)), activity: 'ask', site: DEMO.siteId }));
    expect(entries).toContainEqual(expect.objectContaining({ source: 'worker', level: 'info', msg: expect.stringMatching(/^worker polling /) }));
  });
});
