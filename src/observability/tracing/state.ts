import type { Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import type { TracingSettings } from './settings';

/** The process's tracing, once started: what the worker, the Temporal client and the API client read. */
export interface Tracing {
  readonly settings: TracingSettings;
  readonly tracer: Tracer;
  /** Where the workflows' spans (sent out of the workflow sandbox through a sink) go. */
  readonly spanProcessor: SpanProcessor;
  readonly resource: Resource;
  /** For every Temporal client of the process: starts, signals and queries get a span and carry its context. */
  readonly workflowClientInterceptor: WorkflowClientInterceptor;
  /** Interceptors and the workflow span sink for the process's workers (they also need the traced workflow bundle). */
  workerOptions(): Pick<WorkerOptions, 'interceptors' | 'sinks'>;
  /**
   * Exports what is buffered and stops; idempotent. Never rejects: an export that fails (or hangs, until the
   * exporter's timeout, OTEL_EXPORTER_OTLP_TIMEOUT) is a warning.
   */
  shutdown(): Promise<void>;
}

let current: Tracing | undefined;

/**
 * The process's tracing, or undefined when it is off. Every traced place (each API call, judge call, Temporal client
 * and worker) checks this once: with tracing off that check is all it costs, and the OpenTelemetry SDK, exporters and
 * interceptors are never even loaded (`startTracingFromEnv` imports them only when tracing is configured).
 */
export function activeTracing(): Tracing | undefined {
  return current;
}

export function setActiveTracing(tracing: Tracing): void {
  current = tracing;
}
