import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ConsoleSpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
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

/** The exporters OTEL_TRACES_EXPORTER names: `otlp` in OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL, `console` on stdout. */
export function exportersFor(settings: TracingSettings): SpanExporter[] {
  return settings.exporters.map((kind) => {
    if (kind === 'console') return new ConsoleSpanExporter();
    return settings.protocol === 'http/json' ? new OtlpJsonTraceExporter() : new OtlpProtobufTraceExporter();
  });
}
