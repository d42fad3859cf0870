import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportersFor } from '../../../src/observability/tracing/exporter';
import { tracingSettingsFromEnv } from '../../../src/observability/tracing/settings';

/** A finished span to export. */
function oneSpan(): ReadableSpan {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  provider.getTracer('t').startSpan('POST /m2m/sites/{site_id}/chat/async', { kind: SpanKind.CLIENT }).end();
  return memory.getFinishedSpans()[0] as ReadableSpan;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

/**
 * The OTLP exporters the settings pick, against a local HTTP endpoint: protobuf (the spec's default) and JSON bodies
 * on `/v1/traces`, with OTEL_EXPORTER_OTLP_HEADERS, which the exporter reads from the environment itself.
 */
describe('OTLP/HTTP exporters', () => {
  it.each([
    ['http/protobuf', 'application/x-protobuf'],
    ['http/json', 'application/json'],
  ])('%s posts %s to <endpoint>/v1/traces with the configured headers', async (protocol, contentType) => {
    const seen: { path?: string; type?: string; auth?: string; bytes: number }[] = [];
    const server = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (d: Buffer) => (bytes += d.length));
      req.on('end', () => {
        seen.push({ path: req.url, type: req.headers['content-type'], auth: req.headers.authorization, bytes });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', protocol);
      vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'authorization=Bearer%20t0k3n');
      const settings = tracingSettingsFromEnv(process.env);
      expect(settings?.protocol).toBe(protocol);
      const [exporter] = exportersFor(settings as NonNullable<typeof settings>);
      const result = await new Promise<{ code: ExportResultCode }>((resolve) => exporter?.export([oneSpan()], resolve));
      expect(result.code).toBe(ExportResultCode.SUCCESS);
      await exporter?.shutdown();
      expect(seen).toEqual([{ path: '/v1/traces', type: contentType, auth: 'Bearer t0k3n', bytes: expect.any(Number) as number }]);
      expect(seen[0]?.bytes).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the console exporter', () => {
  it('writes one JSON object per span to stderr, none to stdout', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write');
    try {
      const [exporter] = exportersFor({ exporters: ['console'], protocol: 'http/protobuf', endpoint: '', content: false, contentMaxChars: 0 });
      const result = await new Promise<{ code: ExportResultCode }>((resolve) => exporter?.export([oneSpan()], resolve));
      expect(result.code).toBe(ExportResultCode.SUCCESS);
      const lines = err.mock.calls.map(([chunk]) => String(chunk));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ span: 'POST /m2m/sites/{site_id}/chat/async', kind: SpanKind.CLIENT, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) as string });
      expect(out).not.toHaveBeenCalled();
    } finally {
      err.mockRestore();
      out.mockRestore();
    }
  });
});
