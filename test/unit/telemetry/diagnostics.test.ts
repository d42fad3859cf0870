import { ExportResultCode, globalErrorHandler, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { diagnosticText, REPEAT_WINDOW_MS, withoutRepeats } from '../../../src/observability/tracing/diagnostics';
import { startTracing } from '../../../src/observability/tracing/tracing';

describe('OpenTelemetry diagnostics as log lines', () => {
  it("condenses the SDK's JSON of an exception to its name and message (no stack)", () => {
    const err = new Error('connect ECONNREFUSED 127.0.0.1:4318');
    const json = JSON.stringify({ name: err.name, message: err.message, stack: err.stack, code: 'ECONNREFUSED' });
    expect(diagnosticText(json, [])).toBe('Error: connect ECONNREFUSED 127.0.0.1:4318');
    expect(diagnosticText('Dropped 12 spans because maxQueueSize reached', [])).toBe('Dropped 12 spans because maxQueueSize reached');
    expect(diagnosticText('{not json', [new Error('x')])).toBe('{not json x');
  });

  it('logs a kind of warning once per window and counts the repeats held back (numbers aside)', () => {
    const lines: string[] = [];
    let t = 0;
    const warn = withoutRepeats((m) => lines.push(m), () => t);
    warn('Dropped 3 spans because maxQueueSize reached');
    warn('Error: Request Timeout');
    t = 1_000;
    warn('Dropped 40 spans because maxQueueSize reached');
    warn('Error: Request Timeout');
    t = REPEAT_WINDOW_MS + 1_000;
    warn('Dropped 7 spans because maxQueueSize reached');
    warn('Error: Request Timeout');
    expect(lines).toEqual([
      'Dropped 3 spans because maxQueueSize reached',
      'Error: Request Timeout',
      'Dropped 7 spans because maxQueueSize reached (and 1 more like it in the last 61 s)',
      'Error: Request Timeout (and 1 more like it in the last 61 s)',
    ]);
  });

  it('a failed export at shutdown is a warning: shutdown resolves, the process ends normally', async () => {
    const failing: SpanExporter = {
      export: (_spans: ReadableSpan[], done: (r: ExportResult) => void) => done({ code: ExportResultCode.FAILED, error: new Error('Request Timeout') }),
      shutdown: async () => undefined,
    };
    const warnings: string[] = [];
    const tracing = startTracing({ exporters: ['otlp'], protocol: 'http/json', endpoint: 'test', content: false, contentMaxChars: 1000 }, { serviceName: 't', exporters: [failing], warn: (m) => warnings.push(m) });
    tracing.tracer.startSpan('s').end();
    await expect(tracing.shutdown()).resolves.toBeUndefined();
    expect(warnings).toEqual(['OpenTelemetry: the spans held at shutdown were not exported: Request Timeout']);
    // The SDK's error handler goes to the same log, condensed.
    globalErrorHandler(new Error('connect ECONNREFUSED 127.0.0.1:4318'));
    expect(warnings[1]).toBe('OpenTelemetry: Error: connect ECONNREFUSED 127.0.0.1:4318');
  });
});
