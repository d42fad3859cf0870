import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO } from '../../src/sim/constants';
import { CLI, sitechat } from '../helpers/cli';
import { historyText } from '../helpers/history';
import { OtlpCollector, spansIn, type CollectorPost, type OtlpRequest, type OtlpSpan } from '../helpers/otlpCollector';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { failOnWarnings } from '../helpers/warnings';

const spansOf = (posts: readonly CollectorPost[]): OtlpSpan[] => posts.flatMap(spansIn);

/**
 * The OTEL_* wiring of a real `sitechat worker` process (the built CLI, its prebuilt traced bundle): its spans reach an
 * OTLP/HTTP endpoint with the configured headers and service name; without OTEL_* (or with OTEL_SDK_DISABLED) nothing
 * is set up: no span is sent and no trace context goes into the run's history.
 */
describe('`sitechat worker` traces through OTEL_* (built CLI, real Temporal dev server, simulator over HTTP)', () => {
  let stack: Stack;
  const collector = new OtlpCollector();
  const collectorToken = 'Bearer collector-token-7d1f0c';

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    stack = await startStack(__filename);
    await collector.start();
  });
  afterAll(async () => {
    await collector.close();
    await stack.close();
  });

  /** Starts `sitechat worker` on the stack, runs one row through it, stops it (SIGTERM) and returns its stderr. */
  async function runThroughWorker(otelEnv: Record<string, string>): Promise<{ stderr: string; workflowId: string; code: number | null }> {
    const withoutOtel = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_') && !k.startsWith('SITECHAT_')));
    const child: ChildProcess = spawn(process.execPath, [CLI, 'worker'], {
      env: {
        ...withoutOtel, TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace,
        SITECHAT_BASE_URL: stack.config.baseUrl, SITECHAT_API_KEY: stack.config.apiKey, SITECHAT_RUNS_DIR: stack.runsDir,
        SITECHAT_RATE_LIMIT: '0', SITECHAT_POLL_INTERVAL_MS: '50', SITECHAT_TEMPORAL_LOG_LEVEL: 'INFO', ...otelEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    failOnWarnings('sitechat worker', child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let workflowId = '';
    try {
      const dataset = writeDataset(stack, 'id,question,must_include', ['r1,How much does the Personal plan cost?,$9.99']);
      const handle = await startRun(stack, dataset, { concurrency: 1 });
      workflowId = handle.workflowId;
      const result = await handle.result();
      expect(readResults(result.reportDir)[0]?.requestId, stderr).toBeTruthy();
    } finally {
      // SIGTERM: the worker drains, then exports the spans it still holds before it exits.
      child.kill('SIGTERM');
    }
    const code = await exited;
    return { stderr, workflowId, code };
  }

  it('sends its spans to the OTLP/HTTP (JSON) endpoint with the configured headers and service name; one trace per run; no key or header value in its output', async () => {
    collector.posts.length = 0;
    const { stderr, workflowId, code } = await runThroughWorker({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=${encodeURIComponent(collectorToken)}`, OTEL_SERVICE_NAME: 'sitechat-worker-under-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci',
      // The SDK logs each activity's end at DEBUG: such lines carry the ids of the activity's span.
      SITECHAT_LOG_FORMAT: 'json', SITECHAT_TEMPORAL_LOG_LEVEL: 'DEBUG',
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`traces to OTLP http/json at ${collector.url}/v1/traces`);
    expect(collector.posts.length, stderr).toBeGreaterThan(0);
    for (const p of collector.posts) {
      expect(p.path).toBe('/v1/traces');
      expect(p.headers['content-type']).toBe('application/json');
      expect(p.headers.authorization).toBe(collectorToken);
      expect(p.body).not.toContain(DEMO.apiKey);
    }
    const resource = (JSON.parse(collector.posts[0]?.body as string) as OtlpRequest).resourceSpans[0]?.resource.attributes ?? [];
    expect(resource).toEqual(expect.arrayContaining([
      { key: 'service.name', value: { stringValue: 'sitechat-worker-under-test' } },
      { key: 'deployment.environment', value: { stringValue: 'ci' } },
    ]));
    const spans = spansOf(collector.posts);
    const names = new Set(spans.map((s) => s.name));
    for (const name of ['RunWorkflow:evaluationRun', 'RunWorkflow:runChunk', 'RunActivity:ask', 'POST /m2m/sites/{site_id}/chat/async', 'GET /m2m/sites/{site_id}/chat/requests/{request_id}', 'POST /m2m/sites/{site_id}/chat/feedback', 'POST /m2m/sites/{site_id}/chat/session/close']) {
      expect(names, name).toContain(name);
    }
    // The client of this test is not traced: the run's workflow span is the root, and everything hangs under it.
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const askSpans = new Set(spans.filter((s) => s.name === 'RunActivity:ask').map((s) => s.spanId));
    const logLines = stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const askLines = logLines.filter((l) => l.activity === 'ask' && typeof l.trace_id === 'string');
    expect(askLines.length, 'ask activity log lines with a trace id').toBeGreaterThan(0);
    for (const l of askLines) {
      expect(l.trace_id).toBe(spans[0]?.traceId);
      expect(askSpans.has(l.span_id as string), 'the line names its activity span').toBe(true);
    }
    // The trace context travels in the workflow's headers, and the header value of the exporter nowhere.
    expect(await historyText(stack.client, `${workflowId}/chunk-0`)).toContain('_tracer-data');
    expect(stderr).not.toContain(collectorToken);
    expect(stderr).not.toContain('collector-token');
    expect(stderr).not.toContain(DEMO.apiKey);
  });

  it('a collector that cannot be reached (port closed): the run finishes, the worker warns without the header value and still exits 0', async () => {
    // A port that was free a moment ago and is closed now: every export is refused.
    const closed = new OtlpCollector();
    await closed.start();
    await closed.setMode('down');
    const { stderr, code } = await runThroughWorker({
      OTEL_EXPORTER_OTLP_ENDPOINT: closed.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=${encodeURIComponent(collectorToken)}`,
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('OpenTelemetry: Error: connect ECONNREFUSED');
    expect(stderr).not.toContain('unexpected error');
    expect(stderr).not.toContain('collector-token');
  });

  it('without OTEL_* nothing is set up: no start line, no trace context in the history', async () => {
    const { stderr, workflowId } = await runThroughWorker({});
    expect(stderr).toContain('worker polling');
    expect(stderr).not.toContain('traces to');
    expect(await historyText(stack.client, `${workflowId}/chunk-0`)).not.toContain('_tracer-data');
  });

  it('OTEL_SDK_DISABLED=true wins over a configured endpoint: nothing is sent', async () => {
    collector.posts.length = 0;
    const { stderr, workflowId } = await runThroughWorker({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(stderr).not.toContain('traces to');
    expect(collector.posts).toEqual([]);
    expect(await historyText(stack.client, `${workflowId}/chunk-0`)).not.toContain('_tracer-data');
  });

  it("`sitechat run` traces its client and its in-process worker: the client's start of the run is the trace's root", async () => {
    collector.posts.length = 0;
    writeFileSync(join(stack.runsDir, 'q.csv'), 'question\nHow much does the Personal plan cost?\n');
    // Its own embedded Temporal server: an embedded simulator's worker joins no server its command did not start.
    const res = await sitechat(stack.runsDir, ['run', 'q.csv', '--allow-ungraded'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`traces to OTLP http/json at ${collector.url}/v1/traces`);
    const spans = spansOf(collector.posts);
    const root = spans.filter((s) => s.name === 'StartWorkflow:evaluationRun');
    expect(root, 'the client span').toHaveLength(1);
    expect(root[0]?.parentSpanId || undefined).toBeUndefined();
    const submit = spans.find((s) => s.name === 'POST /m2m/sites/{site_id}/chat/async');
    expect(submit?.traceId).toBe(root[0]?.traceId);
    const resource = (JSON.parse(collector.posts[0]?.body as string) as OtlpRequest).resourceSpans[0]?.resource.attributes ?? [];
    expect(resource).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'sitechat' } }]));
    expect(collector.posts.map((p) => p.body).join('')).not.toContain(DEMO.apiKey);
  });
});
