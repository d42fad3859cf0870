import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sim/constants';
import { SpanAttr } from '../../src/observability/tracing/attributes';
import { startTracing } from '../../src/observability/tracing/tracing';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { ancestorNames, spanText } from '../helpers/spans';
import { useStack, type Stack } from '../helpers/stack';

const SUBMIT = 'POST /m2m/sites/{site_id}/chat/async';
const POLL = 'GET /m2m/sites/{site_id}/chat/requests/{request_id}';
const FEEDBACK = 'POST /m2m/sites/{site_id}/chat/feedback';
const CLOSE = 'POST /m2m/sites/{site_id}/chat/session/close';
const QUESTION = 'How much does the Personal plan cost?';

/**
 * Traces of a real run (Temporal dev server, the simulator over HTTP, in-process workers with the traced workflow
 * bundle), caught by an in-memory exporter in place of OTLP: the spans of one row, from its submit to its session's
 * close, are one trace under the client's start of the run.
 */
describe('traces of a run (real Temporal + simulator over HTTP, in-memory exporter)', () => {
  // Started before the stack, so its client and workers are traced, as the CLI's are when OTEL_* is set.
  const memory = new InMemorySpanExporter();
  const tracing = startTracing({ exporters: ['otlp'], protocol: 'http/json', endpoint: 'in-memory', content: false, contentMaxChars: 1000 }, { serviceName: 'sitechat-test', exporters: [memory] });
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));
  beforeEach(() => {
    tracing.settings.content = false;
    memory.reset();
  });
  afterAll(() => tracing.shutdown());

  async function runOneRow(question = QUESTION): Promise<{ spans: ReadableSpan[]; requestId: string; sessionId: string }> {
    const dataset = writeDataset(stack, 'id,question,must_include', [`r1,"${question}",$9.99`]);
    const result = await (await startRun(stack, dataset, { concurrency: 1 })).result();
    const [row] = readResults(result.reportDir);
    expect(row?.requestId, 'the row was answered').toBeTruthy();
    // The workflows' spans leave the sandbox when they end; the batch processor holds them until flushed.
    await tracing.spanProcessor.forceFlush();
    return { spans: memory.getFinishedSpans(), requestId: row?.requestId as string, sessionId: row?.sessionId as string };
  }

  it("finds one row's submit, status polls, feedback and close in one trace, under the run's workflow and the ask and settle activities", async () => {
    const { spans, requestId } = await runOneRow();
    const byRequest = (name: string) => spans.filter((s) => s.name === name && s.attributes[SpanAttr.requestId] === requestId);
    const submit = byRequest(SUBMIT);
    const polls = byRequest(POLL);
    const feedback = byRequest(FEEDBACK);
    expect(submit, 'one submit span carries the request id the API gave').toHaveLength(1);
    expect(polls.length, 'status polls').toBeGreaterThanOrEqual(1);
    expect(feedback).toHaveLength(1);
    const close = spans.filter((s) => s.name === CLOSE);
    expect(close).toHaveLength(1);

    const traceId = submit[0]?.spanContext().traceId;
    for (const s of [...submit, ...polls, ...feedback, ...close]) expect(s.spanContext().traceId, s.name).toBe(traceId);
    // The API calls are children of their activity, whose span descends from the run's workflow and its start.
    for (const s of [...submit, ...polls]) {
      const chain = ancestorNames(s, spans);
      expect(chain[0], `${s.name}'s parent`).toBe('RunActivity:ask');
      expect(chain).toEqual(expect.arrayContaining(['StartActivity:ask', 'RunWorkflow:runChunk', 'StartChildWorkflow:runChunk', 'RunWorkflow:evaluationRun', 'StartWorkflow:evaluationRun']));
      expect(chain.at(-1), 'the root: the client started the run').toBe('StartWorkflow:evaluationRun');
    }
    for (const s of [...feedback, ...close]) {
      const chain = ancestorNames(s, spans);
      expect(chain[0], `${s.name}'s parent`).toMatch(/^RunActivity:/);
      expect(chain).toEqual(expect.arrayContaining(['RunWorkflow:runChunk', 'RunWorkflow:evaluationRun', 'StartWorkflow:evaluationRun']));
    }

    // What an API span records: the route template (no ids in the name), status, site, attempt, and the server.
    const s = submit[0] as ReadableSpan;
    expect(s.attributes).toMatchObject({
      [SpanAttr.httpMethod]: 'POST', [SpanAttr.httpRoute]: '/m2m/sites/{site_id}/chat/async', [SpanAttr.httpStatus]: 200,
      [SpanAttr.site]: DEMO.siteId, [SpanAttr.attempt]: 1, [SpanAttr.serverAddress]: '127.0.0.1',
    });
    expect(polls.at(-1)?.attributes[SpanAttr.httpStatus]).toBe(200);
    expect(feedback[0]?.attributes[SpanAttr.site]).toBe(DEMO.siteId);
    // Every span of the run is in that one trace.
    expect(new Set(spans.map((x) => x.spanContext().traceId))).toEqual(new Set([traceId]));
  });

  it('records no API key, email and no question or answer text by default', async () => {
    const { spans } = await runOneRow();
    const text = spanText(spans);
    expect(text, 'the spans are searched').toContain(DEMO.siteId);
    expect(text).not.toContain(DEMO.apiKey);
    expect(text).not.toContain('qa@example.com');
    expect(text).not.toContain(QUESTION);
    expect(text).not.toContain('$9.99');
    for (const s of spans) expect(Object.keys(s.attributes).filter((k) => k === SpanAttr.question || k === SpanAttr.answer), s.name).toEqual([]);
  });

  it('with SITECHAT_TRACE_CONTENT the submit span holds the question and the final poll the answer, each cut to the cap; still no key', async () => {
    tracing.settings.content = true;
    tracing.settings.contentMaxChars = 20;
    try {
      const { spans, requestId } = await runOneRow();
      const submit = spans.find((s) => s.name === SUBMIT && s.attributes[SpanAttr.requestId] === requestId);
      expect(submit?.attributes[SpanAttr.question]).toBe(`${QUESTION.slice(0, 20)}…`);
      const answered = spans.filter((s) => s.name === POLL && typeof s.attributes[SpanAttr.answer] === 'string');
      expect(answered.length, 'the completed poll carries the answer').toBeGreaterThanOrEqual(1);
      for (const s of answered) expect((s.attributes[SpanAttr.answer] as string).length).toBeLessThanOrEqual(21);
      expect(spanText(spans)).not.toContain(DEMO.apiKey);
    } finally {
      tracing.settings.contentMaxChars = 1000;
    }
  });
});
