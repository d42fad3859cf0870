import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ExportResultCode, hrTimeToMicroseconds, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TracingSettings } from './settings';

/**
 * OTLP/HTTP with protobuf bodies (the spec's default protocol), as `@opentelemetry/exporter-trace-otlp-proto` builds
 * it from the same two parts. Endpoint, headers, timeout and compression come from the OTEL_EXPORTER_OTLP_* variables,
 * read by the exporter itself: header values (a collector's token) never pass through the runner's own objects.
 */
class OtlpProtobufTraceExporter extends OTLPExporterBase<ReadableSpan[]> implements SpanExporter {
  constructor() {
    super(createOtlpHttpExportDelegate(convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }), ProtobufTraceSerializer));
  }
}

/**
 * `OTEL_TRACES_EXPORTER=console`: one JSON object per span on stderr. The SDK's own console exporter writes to stdout,
 * where `--json` output and summaries go.
 */
class StderrSpanExporter implements SpanExporter {
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    for (const span of spans) {
      const { traceId, spanId } = span.spanContext();
      const line = {
        span: span.name, traceId, spanId, parentSpanId: span.parentSpanId, kind: span.kind,
        startUs: hrTimeToMicroseconds(span.startTime), durationUs: hrTimeToMicroseconds(span.duration),
        status: span.status, attributes: span.attributes, events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
      };
      process.stderr.write(`${JSON.stringify(line)}\n`);
    }
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {
    // Nothing buffered.
  }
}

/** The exporters OTEL_TRACES_EXPORTER names: `otlp` in OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL, `console` on stderr. */
export function exportersFor(settings: TracingSettings): SpanExporter[] {
  return settings.exporters.map((kind) => {
    if (kind === 'console') return new StderrSpanExporter();
    return settings.protocol === 'http/json' ? new OtlpJsonTraceExporter() : new OtlpProtobufTraceExporter();
  });
}
