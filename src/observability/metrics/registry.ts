import { collectDefaultMetrics, Registry, type Counter, type Gauge, type Histogram } from 'prom-client';
import { defineRunnerMetrics, type RunnerMetrics } from './runnerMetrics';

type Labels<L extends string> = Partial<Record<L, string | number>>;
interface CounterHook<L extends string> { inc(labels: Labels<L>, value?: number): void }
interface GaugeHook<L extends string> { inc(labels: Labels<L>, value?: number): void; dec(labels: Labels<L>, value?: number): void }
interface HistogramHook<L extends string> { observe(labels: Labels<L>, value: number): void }

/** What the hooks in the API client, the pacer and the activities see: the metrics, or nothing when they are off. */
export type MetricHooks = {
  [K in keyof RunnerMetrics]: RunnerMetrics[K] extends Counter<infer L> ? CounterHook<L>
    : RunnerMetrics[K] extends Histogram<infer L> ? HistogramHook<L>
    : RunnerMetrics[K] extends Gauge<infer L> ? GaugeHook<L>
    : never;
};

const nothing = (): void => undefined;
const off = { inc: nothing, dec: nothing, observe: nothing };

/** Every hook a no-op: a process without SITECHAT_METRICS_ADDR pays one property read and an empty call per hook. */
const NO_METRICS = new Proxy({} as MetricHooks, { get: () => off });

let active: { registry: Registry; metrics: RunnerMetrics } | undefined;

/** Whether this process serves metrics (SITECHAT_METRICS_ADDR): hooks that need a lookup first skip it otherwise. */
export function metricsEnabled(): boolean {
  return active !== undefined;
}

/** The process's metrics: no-ops until {@link enableMetrics}. */
export function metrics(): MetricHooks {
  return active?.metrics ?? NO_METRICS;
}

/**
 * Turns the runner's metrics on for this process (idempotent) and returns their registry: the runner's own metrics
 * and Node's process metrics (CPU, memory, event-loop lag, `process_*` / `nodejs_*`).
 */
export function enableMetrics(): Registry {
  if (active === undefined) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    active = { registry, metrics: defineRunnerMetrics(registry) };
  }
  return active.registry;
}

/** A registry with every metric defined and nothing recorded, for checking names (alert rules, the dashboard). */
export function describeMetrics(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  defineRunnerMetrics(registry);
  return registry;
}
