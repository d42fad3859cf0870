import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { authority, type ListenAddress } from './address';

export interface MetricsServer {
  /** `http://host:port/metrics`, with the port actually bound (an ephemeral one when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

/** How long a scrape waits for the Temporal SDK's own endpoint before serving the runner's metrics without them. */
const CORE_TIMEOUT_MS = 2_000;

/**
 * Serves `GET /metrics`: the registry's text, then the Temporal SDK core's (fetched from `coreUrl`, its own Prometheus
 * endpoint on a loopback port) appended, so one scrape target per worker process has both. Metric names do not
 * collide: the runner's start with `sitechat_`, `process_` or `nodejs_`, the SDK's with `temporal_`. When the SDK's
 * endpoint does not answer, the runner's metrics are still served, with a comment saying why the rest is missing.
 */
export async function serveMetrics(registry: Registry, address: ListenAddress, coreUrl?: string): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain' }).end(path === '/metrics' ? 'GET only\n' : 'see /metrics\n');
      return;
    }
    void scrape(registry, coreUrl).then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  await listen(server, address);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${authority(address.host, port)}/metrics`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function scrape(registry: Registry, coreUrl: string | undefined): Promise<string> {
  const own = await registry.metrics();
  if (coreUrl === undefined) return own;
  let core: string;
  try {
    const res = await fetch(coreUrl, { signal: AbortSignal.timeout(CORE_TIMEOUT_MS) });
    core = res.ok ? await res.text() : `# Temporal SDK metrics unavailable: ${coreUrl} answered ${res.status}\n`;
  } catch (err) {
    core = `# Temporal SDK metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`;
  }
  return `${own.endsWith('\n') ? own : `${own}\n`}${core}`;
}

function listen(server: Server, { host, port }: ListenAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * A free loopback port for the Temporal SDK core's Prometheus exporter, which takes a fixed bind address and does not
 * say which port it got for 0. Another process could take the port before the core binds it (`start.ts` tries again).
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createTcpServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
