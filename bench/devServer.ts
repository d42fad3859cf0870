/**
 * A Temporal dev server for one bench run: the project's CLI, the project's dynamic config (one partition per task
 * queue), one namespace per scenario, and — unlike `startLocalServer` — a known metrics port and pid, because the
 * bench reads the server's own counters (heartbeats and queries that reached it, which no history records) and
 * its CPU.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { locateTemporalCli } from '../src/temporal/cliLocator';
import { freePort } from '../src/temporal/devServerProcess';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../src/temporal/localServer';

export interface BenchServer {
  address: string;
  pid: number;
  metricsUrl: string;
  stop(): Promise<void>;
}

export async function startBenchServer(namespaces: string[]): Promise<BenchServer> {
  const cli = await locateTemporalCli();
  if (!cli.path) throw new Error(`no Temporal CLI found (${cli.notes.join('; ')}); run \`npm run provision\``);
  const [port, metricsPort] = [await freePort(), await freePort()];
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--metrics-port', String(metricsPort), '--headless', '--log-level', 'error'];
  for (const ns of namespaces) args.push('--namespace', ns);
  for (const kv of DEV_SERVER_DYNAMIC_CONFIG) args.push('--dynamic-config-value', kv);
  const child = spawn(cli.path, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4000)));
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  const address = `127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Temporal dev server exited with ${child.exitCode}: ${stderr}`);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      await conn.workflowService.getSystemInfo({});
      await conn.close();
      break;
    } catch {
      if (Date.now() > deadline) {
        kill();
        throw new Error(`Temporal dev server did not answer on ${address}: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    pid: child.pid as number,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    stop: async () => {
      process.off('exit', kill);
      await stopChild(child);
    },
  };
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
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
