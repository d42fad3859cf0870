import type { Tracing } from './tracing';

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
