import { Runtime } from '@temporalio/worker';
import { installQuietRuntime } from '../temporal/sdkRuntime';
import type { ListenAddress } from './address';
import { enableMetrics } from './registry';
import { freeLoopbackPort, serveMetrics, type MetricsServer } from './server';

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
  const corePort = Runtime._instance === undefined ? await freeLoopbackPort() : undefined;
  const core = corePort === undefined ? undefined : `127.0.0.1:${corePort}`;
  const temporal = installQuietRuntime(level, { metricsBindAddress: core }) && core !== undefined;
  const server = await serveMetrics(enableMetrics(), address, temporal ? `http://${core}/metrics` : undefined);
  return { ...server, temporal };
}
