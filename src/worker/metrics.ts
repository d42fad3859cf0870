import { Runtime } from '@temporalio/worker';
import { installQuietRuntime } from '../temporal/sdkRuntime';
import type { ListenAddress } from '../observability/metrics/address';
import { enableMetrics } from '../observability/metrics/registry';
import { freeLoopbackPort, serveMetrics, type MetricsServer } from '../observability/metrics/server';

export interface WorkerMetrics extends MetricsServer {
  /** Whether the Temporal SDK's metrics are in the scrape: only when this process's runtime was installed here. */
  temporal: boolean;
}

/**
 * Installs the process's Temporal runtime and, when `address` is given (SITECHAT_METRICS_ADDR), turns the runner's
 * metrics on and serves them with the SDK's on `address`. The SDK's core has a Prometheus exporter of its own, bound
 * to a loopback port of its own that the endpoint reads from. Must run before the process's first worker or native
 * connection: a runtime installed earlier (without metrics) leaves the SDK's metrics out.
 */
export async function installRuntimeWithMetrics(level: 'WARN' | 'ERROR', address: ListenAddress | undefined): Promise<WorkerMetrics | undefined> {
  if (address === undefined) {
    installQuietRuntime(level);
    return undefined;
  }
  const core = await installWithCoreExporter(level);
  const server = await serveMetrics(enableMetrics(), address, core === undefined ? undefined : `http://${core}/metrics`);
  return { ...server, temporal: core !== undefined };
}

/** Attempts at a free port for the SDK's exporter: another process may take the one found before the core binds it. */
const CORE_BIND_ATTEMPTS = 3;

/**
 * Installs the runtime with the SDK core's exporter on a free loopback port and returns that address; undefined when
 * a runtime was installed before (without it), or when no port could be bound (the runtime is then installed without
 * the SDK's metrics: the worker runs, and its endpoint serves the runner's metrics).
 */
async function installWithCoreExporter(level: 'WARN' | 'ERROR'): Promise<string | undefined> {
  if (Runtime._instance !== undefined) return undefined;
  for (let attempt = 1; attempt <= CORE_BIND_ATTEMPTS; attempt++) {
    const core = `127.0.0.1:${await freeLoopbackPort()}`;
    try {
      return installQuietRuntime(level, { metricsBindAddress: core }) ? core : undefined;
    } catch (err) {
      // The native runtime refuses to start when its exporter cannot bind ("Address already in use"); nothing is
      // installed then, so the next attempt (or the plain runtime) can be.
      if (Runtime._instance !== undefined) throw err;
    }
  }
  installQuietRuntime(level);
  return undefined;
}
