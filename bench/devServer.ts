/**
 * A Temporal dev server for one bench run: the project's CLI, the project's dynamic config (one partition per task
 * queue), one namespace per scenario, and — unlike `startLocalServer` — a known metrics port and pid, because the
 * bench reads the server's own counters (heartbeats and queries that reached it, which no history records) and
 * its CPU.
 */
import { locateTemporalCli } from '../src/temporal/cliLocator';
import { freePort, spawnDevServer } from '../src/temporal/devServerProcess';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../src/temporal/localServer';

export { stopChild } from '../src/temporal/devServerProcess';

export interface BenchServer {
  address: string;
  pid: number;
  metricsUrl: string;
  stop(): Promise<void>;
}

export async function startBenchServer(namespaces: string[]): Promise<BenchServer> {
  const cli = await locateTemporalCli();
  if (!cli.path) throw new Error(`no Temporal CLI found (${cli.notes.join('; ')}); run \`npm run provision\``);
  const metricsPort = await freePort();
  const server = await spawnDevServer({ cliPath: cli.path, namespaces, dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG, metricsPort });
  return { address: server.address, pid: server.pid, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, stop: () => server.stop() };
}

/** `service_requests` of the frontend for one namespace, by operation (RecordActivityTaskHeartbeat, QueryWorkflow …). */
export async function frontendRequests(metricsUrl: string, namespace: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  // Prometheus label values are sanitized: `bench-limit` is reported as `bench_limit`.
  const label = namespace.replace(/[^a-zA-Z0-9_]/g, '_');
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('service_requests{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (labels.namespace !== label || labels.service_name !== 'frontend' || !labels.operation) continue;
    out[labels.operation] = (out[labels.operation] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}

/** Difference of two counter snapshots (after − before), zero entries dropped. */
export function delta(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) if (v - (before[k] ?? 0) !== 0) out[k] = v - (before[k] ?? 0);
  return out;
}
