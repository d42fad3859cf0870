import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SiteChatClient, type SiteChatClientOptions } from '../../../src/api';

export const API_KEY = 'sk-test-5ecret-KEY_123';

/** A request as the test server saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

export interface TestServer {
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A local HTTP server on port 0 whose handler sees every request with its parsed JSON body. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
      seen.push(entry);
      handler(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts a server answering every request with `status` and `body`, and a client pointed at it. */
export async function withServer(handler: Handler, options: Partial<SiteChatClientOptions> = {}) {
  const server = await startServer(handler);
  const client = new SiteChatClient({ baseUrl: server.baseUrl, apiKey: API_KEY, ...options });
  return {
    server,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
