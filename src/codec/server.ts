/**
 * A codec server (Temporal's remote codec protocol): `POST …/decode` and `POST …/encode` run payloads through the
 * payload codec, so the Temporal Web UI and CLI show what the workers encrypted. It holds the keys, so it is closed
 * down on every side: loopback only, a `Host` check against DNS rebinding, a token on every request, and CORS for the
 * Web UI's origin(s) only (another page in the browser gets no `Access-Control-*` header, and a request that
 * carries another Origin is refused before anything is decoded).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PayloadCodec } from '@temporalio/common';
import { tokenMatches } from '../shared/serverGuard';
import { PayloadCodecError } from './errors';
import { PayloadJsonError, payloadsFromJson, payloadsToJson } from './payloadJson';

/**
 * A history's payloads, base64 in JSON: Temporal caps a history at 50 MiB, and the UI and CLI send an event's (or
 * a page's) payloads at a time, far less.
 */
const MAX_BODY = 64 * 1024 * 1024;

export interface CodecServerOptions {
  codec: PayloadCodec;
  /** Bound address: a loopback one. @default 127.0.0.1 */
  host?: string;
  /** @default 0 (a free port) */
  port?: number;
  /** The secret every request must carry: `Authorization: Bearer <token>`, or as the endpoint's path (`/<token>/decode`). */
  token: string;
  /** Origins allowed to call from a browser (the Temporal Web UI's, e.g. `http://127.0.0.1:8233`). @default none */
  uiOrigins?: readonly string[];
}

export interface RunningCodecServer {
  /** `http://127.0.0.1:<port>`: the endpoint for the CLI, with the token in a header. */
  endpoint: string;
  /** `http://127.0.0.1:<port>/<token>`: the endpoint for the Web UI, which cannot send a header of its own. */
  endpointWithToken: string;
  port: number;
  close(): Promise<void>;
}

class RequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The `Host` a browser sends for this server: a page on a rebound DNS name sends its own name, and is refused. */
function hostAllowed(header: string | undefined, boundHost: string, port: number): boolean {
  if (!header) return false;
  const bound = boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  return [...new Set([...LOOPBACK_NAMES, bound])].some((name) => header.toLowerCase() === `${name}:${port}`);
}

function tokenOf(req: IncomingMessage, segments: readonly string[]): string | undefined {
  const auth = req.headers.authorization;
  if (auth) return auth.replace(/^Bearer\s+/iu, '');
  // `/<token>/decode`: the Web UI appends /decode to the endpoint it was given.
  return segments.length === 2 ? decodeURIComponent(segments[0] as string) : undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new RequestError(413, `request body over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    // The UI's "include cross-origin credentials" setting needs it; this server sets and reads no cookie.
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
  };
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(body);
}

export function startCodecServer(options: CodecServerOptions): Promise<RunningCodecServer> {
  const host = options.host ?? '127.0.0.1';
  const origins = new Set(options.uiOrigins ?? []);
  let port = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host, host, port)) throw new RequestError(403, 'forbidden: this codec server answers its loopback address only');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) throw new RequestError(403, `forbidden: origin ${origin} may not call this codec server (sitechat codec-server --ui-origin)`);
    const cors = origin === undefined ? {} : corsHeaders(origin);
    const segments = new URL(req.url ?? '/', 'http://codec.invalid').pathname.split('/').filter(Boolean);
    const action = segments.at(-1);
    if (action !== 'decode' && action !== 'encode') throw new RequestError(404, 'not found: POST …/decode or …/encode');
    if (req.method === 'OPTIONS') {
      // A browser's preflight carries no credentials: it learns only what the UI may send.
      // A UI served from the internet (Temporal Cloud's) calling this loopback server: Chrome asks first.
      const privateNetwork = req.headers['access-control-request-private-network'] === 'true' ? { 'Access-Control-Allow-Private-Network': 'true' } : {};
      res.writeHead(204, { ...cors, ...privateNetwork, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Namespace', 'Access-Control-Max-Age': '600' });
      res.end();
      return;
    }
    if (req.method !== 'POST') throw new RequestError(405, 'method not allowed: POST');
    if (!tokenMatches(tokenOf(req, segments), options.token)) {
      throw new RequestError(401, 'unauthorized: send the token sitechat codec-server printed (Authorization: Bearer <token>, or the endpoint …/<token>)');
    }
    const payloads = payloadsFromJson(await readBody(req));
    const out = action === 'decode' ? await options.codec.decode(payloads) : await options.codec.encode(payloads);
    send(res, 200, payloadsToJson(out), cors);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      // A payload the keys cannot open is the caller's problem (400, as the protocol has it), named by its key id.
      const status = err instanceof RequestError ? err.status : err instanceof PayloadCodecError || err instanceof PayloadJsonError ? 400 : 500;
      const origin = req.headers.origin;
      send(res, status, JSON.stringify({ error: err instanceof Error ? err.message : String(err) }), origin !== undefined && origins.has(origin) ? corsHeaders(origin) : {});
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      port = (server.address() as AddressInfo).port;
      const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      resolve({
        endpoint: base,
        endpointWithToken: `${base}/${encodeURIComponent(options.token)}`,
        port,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
