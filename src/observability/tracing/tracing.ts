import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { AsyncLocalContextManager } from './contextManager';
import { diagnosticText, reportDiagnostics } from './diagnostics';
import { exportersFor } from './exporter';
import type { TracingSettings } from './settings';
import { setActiveTracing, activeTracing, type Tracing } from './state';
import { tracingWorkerOptions } from './worker';

export const TRACER_NAME = 'sitechat-runner';

export interface StartTracingOptions {
  /** `service.name` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES give one. */
  serviceName: string;
  /** Replaces the exporters of the settings (tests: an in-memory exporter). */
  exporters?: SpanExporter[];
  /** Where the SDK's own warnings and errors go (a collector that refuses or cannot be reached); unset: nowhere. */
  warn?: (message: string) => void;
}

/**
 * Starts the process's tracing: a tracer provider whose spans go through a batch processor (OTEL_BSP_* apply) to the
 * configured exporters, with the W3C trace-context propagator the Temporal interceptors put into workflow and
 * activity headers, and an async-local context manager. Sampling follows OTEL_TRACES_SAMPLER(_ARG), as the SDK reads
 * them. One per process: a second call returns the first.
 */
export function startTracing(settings: TracingSettings, options: StartTracingOptions): Tracing {
  const running = activeTracing();
  if (running) return running;
  if (options.warn) reportDiagnostics(options.warn);
  const resource = new Resource({
    ...Resource.default().attributes,
    'service.name': options.serviceName,
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults.
    ...envDetectorSync.detect().attributes,
  });
  const processors = (options.exporters ?? exportersFor(settings)).map((e) => new BatchSpanProcessor(e));
  const spanProcessor = processors.length === 1 ? (processors[0] as SpanProcessor) : fanOut(processors);
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  context.setGlobalContextManager(new AsyncLocalContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  let stopping: Promise<void> | undefined;
  const tracer = provider.getTracer(TRACER_NAME);
  const tracing: Tracing = {
    settings,
    tracer,
    spanProcessor,
    resource,
    workflowClientInterceptor: new OpenTelemetryWorkflowClientInterceptor({ tracer }),
    workerOptions: () => tracingWorkerOptions(tracer, spanProcessor, resource),
    // A collector that is down or hangs fails the last export: the spans are lost, the process still ends normally.
    shutdown: () => (stopping ??= provider.shutdown().catch((err: unknown) => {
      options.warn?.(`OpenTelemetry: the spans held at shutdown were not exported: ${err instanceof Error ? err.message : diagnosticText(String(err), [])}`);
    })),
  };
  setActiveTracing(tracing);
  return tracing;
}

/** One processor in front of several (OTEL_TRACES_EXPORTER=otlp,console). */
function fanOut(processors: SpanProcessor[]): SpanProcessor {
  return {
    onStart: (span, ctx) => processors.forEach((p) => p.onStart(span, ctx)),
    onEnd: (span) => processors.forEach((p) => p.onEnd(span)),
    forceFlush: async () => void (await Promise.all(processors.map((p) => p.forceFlush()))),
    shutdown: async () => void (await Promise.all(processors.map((p) => p.shutdown()))),
  };
}
