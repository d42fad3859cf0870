/**
 * The review page's HTTP server: 127.0.0.1 by default. Every request whose `Host` is not this server's address (a
 * loopback name or the bound address, with the bound port) is refused (403) first: a guard against DNS rebinding.
 * The page, its script and style are constants with no data and no token in them; the JSON API refuses (403) every
 * request without the token in the `X-Review-Token` header (src/shared/serverGuard.ts: the page keeps it from the URL's fragment; no
 * cookie, no query). No CORS: no `Access-Control-*` header is ever sent, so other origins cannot read a response, and
 * the header cannot be set by a form or by another origin without a preflight that is refused.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReviewRequestError } from './errors';
import { REVIEW_CSP, REVIEW_CSS, REVIEW_HTML, REVIEW_JS } from './pageAssets';
import type { ReviewSession } from './session';
import { hostAllowed, TOKEN_HEADER, tokenMatches, urlHost } from '../shared/serverGuard';
import type { SaveRequest } from './types';

/** A label request is a few ids and a note. */
const MAX_BODY = 64 * 1024;

export interface ReviewServerOptions {
  host: string;
  port: number;
  token: string;
  session: ReviewSession;
  onError?: (err: unknown) => void;
}

export interface RunningReviewServer {
  server: Server;
  /** The URL to open, with the token. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': REVIEW_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Nothing of the page's URL is sent on to another site (a browser never sends the fragment, where the token is).
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ReviewRequestError(`request body over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ReviewRequestError('request body is not JSON');
  }
}

function saveRequestOf(body: unknown): SaveRequest {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  for (const field of ['runId', 'rowId', 'verdict'] as const) {
    if (typeof b[field] !== 'string' || b[field] === '') throw new ReviewRequestError(`\`${field}\` must be a non-empty string`);
  }
  if (b.note !== undefined && typeof b.note !== 'string') throw new ReviewRequestError('`note` must be a string');
  return { runId: b.runId as string, rowId: b.rowId as string, verdict: b.verdict as SaveRequest['verdict'], ...(typeof b.note === 'string' && { note: b.note }) };
}

export function startReviewServer(options: ReviewServerOptions): Promise<RunningReviewServer> {
  const { token, session } = options;
  let bound = { host: options.host, port: options.port };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host, bound)) {
      return json(res, 403, { error: `forbidden: the Host header names no address of this server (open http://${urlHost(options.host)}:${bound.port}/ as \`sitechat review\` printed it)` });
    }
    const url = new URL(req.url ?? '/', 'http://review.invalid');
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    switch (route) {
      // The page and its assets: constants, nothing of the runs in them (the script fetches that with the token).
      case 'GET /':
        return send(res, 200, 'text/html; charset=utf-8', REVIEW_HTML);
      case 'GET /review.js':
        return send(res, 200, 'text/javascript; charset=utf-8', REVIEW_JS);
      case 'GET /review.css':
        return send(res, 200, 'text/css; charset=utf-8', REVIEW_CSS);
      default:
        break;
    }
    const header = req.headers[TOKEN_HEADER];
    if (!tokenMatches(typeof header === 'string' ? header : undefined, token)) {
      return json(res, 403, { error: 'forbidden: open the URL with the token that `sitechat review` printed' });
    }
    switch (route) {
      case 'GET /api/state':
        return json(res, 200, session.snapshot());
      case 'GET /api/agreement':
        return json(res, 200, await session.agreement());
      case 'POST /api/labels': {
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new ReviewRequestError('Content-Type must be application/json');
        const saved = await session.save(saveRequestOf(await readBody(req)));
        return json(res, 200, saved);
      }
      default:
        return json(res, 404, { error: `no route ${route}` });
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      if (err instanceof ReviewRequestError) return json(res, err.status, { error: err.message });
      options.onError?.(err);
      json(res, 500, { error: `save failed: ${err instanceof Error ? err.message : String(err)}` });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      bound = { host: options.host, port };
      resolve({
        // The token in the fragment: the browser keeps it, and never sends it to a server.
        server, port, url: `http://${urlHost(options.host)}:${port}/#token=${token}`,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
