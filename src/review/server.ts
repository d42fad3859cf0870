/**
 * The review page's HTTP server: 127.0.0.1 by default, every request refused (403) without the token — the page, its
 * assets and the JSON API alike — and no CORS (no `Access-Control-*` header is ever sent, so other origins cannot read
 * a response; a POST must carry the token header, which a form or another origin cannot set without a preflight
 * that is refused).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReviewRequestError } from './errors';
import { REVIEW_CSP, REVIEW_CSS, REVIEW_HTML, REVIEW_JS } from './pageAssets';
import type { ReviewSession } from './session';
import { TOKEN_COOKIE, TOKEN_HEADER, tokenFromCookie, tokenMatches } from './token';
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
  // The token is in the page's URL: never sent on to another site.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...headers });
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
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://review.invalid');
    const header = req.headers[TOKEN_HEADER];
    const fromHeader = typeof header === 'string' ? header : undefined;
    const fromQuery = url.searchParams.get('token') ?? undefined;
    const fromCookie = tokenFromCookie(req.headers.cookie);
    // A POST needs the header: a cookie alone is what a cross-site form would bring along.
    const authorized = req.method === 'POST'
      ? tokenMatches(fromHeader, token)
      : tokenMatches(fromHeader, token) || tokenMatches(fromQuery, token) || tokenMatches(fromCookie, token);
    if (!authorized) return json(res, 403, { error: 'forbidden: open the URL with the token that `sitechat review` printed' });

    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    switch (route) {
      case 'GET /': {
        // HttpOnly and SameSite=Strict: a reload without ?token works, and no other site sends it along.
        const cookie = `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
        return send(res, 200, 'text/html; charset=utf-8', REVIEW_HTML.replace('__TOKEN__', token), { 'Set-Cookie': cookie });
      }
      case 'GET /review.js':
        return send(res, 200, 'text/javascript; charset=utf-8', REVIEW_JS);
      case 'GET /review.css':
        return send(res, 200, 'text/css; charset=utf-8', REVIEW_CSS);
      case 'GET /api/state':
        return json(res, 200, session.snapshot());
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
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        server, port, url: `http://${host}:${port}/?token=${token}`,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
