import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ADMIN_TOKEN_REQUIRED, adminAllowed } from '../adminAuth';
import { authenticate } from '../auth';
import { ADMIN_PREFIX, ApiError, Endpoint, JUDGE_PREFIX, type EndpointName } from '../constants';
import { checkBearer, openAiError } from '../handlers/judge';
import { adminRouter } from '../handlers/admin';
import { limitPath } from '../ratelimit';
import type { Simulator } from '../simulator';
import { BAD_GATEWAY_PAGE, clientIp, parseJson, readBody, sendHtml, sendJson, sleep } from './io';
import { apiRouter, judgeRouter } from './routes';
import { errorReply, INVALID_JSON, type Reply } from './types';
import { retryAfterHeader, sendApiReply } from './wire';

/** The 400 an endpoint gives for a body it refuses (spec §7), used by the `rejectRate` fault. */
const REJECTION: Partial<Record<EndpointName, string>> = {
  [Endpoint.feedback]: ApiError.invalidFeedback,
  [Endpoint.sessionsClose]: ApiError.sessionIdRequired,
};

type JsonResult = { ok: true; body: unknown } | { ok: false; reason: 'too-large' | 'aborted' };

async function readJson(sim: Simulator, req: IncomingMessage): Promise<JsonResult> {
  const read = await readBody(req, sim.options.maxBodyBytes);
  return read.ok ? { ok: true, body: parseJson(read.text, INVALID_JSON) } : read;
}

async function handleAdmin(sim: Simulator, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (!adminAllowed(sim.options.adminToken, req.headers)) return sendJson(res, 401, { error: ADMIN_TOKEN_REQUIRED }, { 'www-authenticate': 'Bearer' });
  const match = adminRouter.match(req.method ?? 'GET', path);
  if (match.kind === 'not-found') return sendJson(res, 404, { error: ApiError.notFound });
  if (match.kind === 'method-not-allowed') return sendJson(res, 405, { error: ApiError.methodNotAllowed }, { allow: match.allow.join(', ') });
  const read: JsonResult = req.method === 'GET' ? { ok: true, body: undefined } : await readJson(sim, req);
  if (!read.ok) return read.reason === 'aborted' ? undefined : sendJson(res, 413, { error: ApiError.bodyTooLarge }, { connection: 'close' });
  const r = match.value(sim, read.body, match.params);
  sendJson(res, r.status, r.body, r.headers);
}

/**
 * Counts a request in the stats under its rate-limit `path` (per client IP) and returns how to answer it; API and
 * judge routes share this, they differ only in their error bodies.
 */
function track(
  sim: Simulator, req: IncomingMessage, res: ServerResponse, endpoint: EndpointName | 'unknown', path: string,
  write: (r: Reply) => void = (r) => sendJson(res, r.status, r.body, r.headers),
): { key: string; now: number; send: (r: Reply) => void } {
  const key = `${clientIp(req, sim.options.trustForwardedFor)} ${path}`;
  const now = Date.now();
  res.once('close', sim.stats.begin(key, endpoint, now));
  return {
    key,
    now,
    send: (r) => {
      sim.stats.response(endpoint, r.status);
      write(r);
    },
  };
}

/** An injected 429 burst takes this request (counted). */
function injectedBurst(sim: Simulator, name: EndpointName): boolean {
  if (!sim.faults.takeBurst(name)) return false;
  sim.stats.counters.faults.bursts++;
  return true;
}

/** Injected extra latency, when set for the endpoint (counted). */
async function injectedDelay(sim: Simulator, name: EndpointName): Promise<void> {
  const extra = sim.faults.extraLatencyMs(name);
  if (extra <= 0) return;
  sim.stats.counters.faults.delayed++;
  await sleep(extra);
}

/**
 * A processed request's response lost on the way back (injected), or undefined: the socket destroyed (`dropRate`, a
 * reset), or a proxy's HTML 502 page in its place (`badGatewayAfterAcceptRate`). Either way the request's effect stays.
 */
function lostResponse(sim: Simulator, name: EndpointName, r: Reply): 'dropped' | 'badGateway' | undefined {
  if (r.status >= 300) return undefined;
  if (sim.faults.roll(name, 'dropRate')) return 'dropped';
  return sim.faults.roll(name, 'badGatewayAfterAcceptRate') ? 'badGateway' : undefined;
}

/**
 * One API request, in this order: rate limit (per client IP and path, before anything else) →
 * unknown route 404 / 405 → injected 429 burst → body (413 past maxBodyBytes) → injected extra
 * latency → API key (401/403) → injected 500 → handler (400/404/409/…) → injected response drop or 502 page.
 */
async function handleApi(sim: Simulator, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<void> {
  const { basePath } = sim.options;
  const match = apiRouter.match(req.method ?? 'GET', pathname.slice(basePath.length + 1));
  const endpoint: EndpointName | 'unknown' = match.kind === 'found' ? match.value.endpoint : 'unknown';
  const limited = match.kind === 'found' ? limitPath(sim.options.rateLimitScope, pathname, basePath, match.pattern, match.params) : pathname;
  const { key, now, send } = track(sim, req, res, endpoint, limited, (r) => sendApiReply(res, r, sim.options));
  const tooMany = (): Reply => errorReply(429, ApiError.tooManyRequests, undefined, retryAfterHeader(sim.options));
  if (!sim.limiter.allow(key, now)) return send(tooMany());
  if (match.kind === 'not-found') return send(errorReply(404, ApiError.notFound));
  if (match.kind === 'method-not-allowed') return send(errorReply(405, ApiError.methodNotAllowed, undefined, { allow: match.allow.join(', ') }));
  const { endpoint: name, handler } = match.value;
  if (injectedBurst(sim, name)) return send(tooMany());
  let body: unknown;
  if (req.method !== 'GET') {
    const read = await readJson(sim, req);
    if (!read.ok && read.reason === 'aborted') return;
    if (!read.ok) return send(errorReply(413, ApiError.bodyTooLarge, undefined, { connection: 'close' }));
    body = read.body;
  }
  await injectedDelay(sim, name);
  const auth = authenticate(sim.registry, req.headers['x-api-key'], sim.clock.now());
  if (!auth.ok) return send(auth.reply);
  if (sim.faults.roll(name, 'failRate')) {
    sim.stats.counters.faults.errors++;
    return send(errorReply(500, ApiError.ragFailure));
  }
  if (sim.faults.roll(name, 'rejectRate')) {
    sim.stats.counters.faults.errors++;
    return send(errorReply(400, REJECTION[name] ?? ApiError.invalidPayload));
  }
  const r = await handler(sim, { endpoint: name, params: match.params, search, body, tenant: auth.tenant });
  if (req.method !== 'GET') sim.changed();
  const lost = lostResponse(sim, name, r);
  if (lost) {
    sim.stats.counters.faults[lost]++;
    r.onLost?.();
    if (lost === 'dropped') return void res.destroy();
    sim.stats.response(name, 502);
    return sendHtml(res, 502, BAD_GATEWAY_PAGE);
  }
  send(r);
}

/**
 * The judge route, with the API's order of checks: rate limit → unknown route → injected 429 burst → body →
 * injected extra latency → bearer key (401) → injected 500 → handler (400) → injected response drop.
 */
async function handleJudge(sim: Simulator, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const match = judgeRouter.match(req.method ?? 'GET', pathname.slice(JUDGE_PREFIX.length + 1));
  const endpoint: EndpointName | 'unknown' = match.kind === 'found' ? match.value.endpoint : 'unknown';
  const { key, now, send } = track(sim, req, res, endpoint, pathname);
  const tooMany = (): Reply => {
    const retry = sim.options.retryAfterSeconds;
    return openAiError(429, 'Rate limit reached for requests. Please try again later.', 'requests', 'rate_limit_exceeded', retry === null ? undefined : { 'retry-after': String(retry) });
  };
  if (!sim.limiter.allow(key, now)) return send(tooMany());
  if (match.kind === 'not-found') return send(openAiError(404, `Unknown request URL: ${req.method ?? 'GET'} ${pathname}`, 'invalid_request_error', 'unknown_url'));
  if (match.kind === 'method-not-allowed') return send(openAiError(405, 'method not allowed', 'invalid_request_error'));
  const { endpoint: name, handler } = match.value;
  if (injectedBurst(sim, name)) return send(tooMany());
  const read = await readJson(sim, req);
  if (!read.ok && read.reason === 'aborted') return;
  if (!read.ok) return send(openAiError(413, 'request body too large', 'invalid_request_error'));
  await injectedDelay(sim, name);
  const unauthorized = checkBearer(req.headers.authorization);
  if (unauthorized) return send(unauthorized);
  if (sim.faults.roll(name, 'failRate')) {
    sim.stats.counters.faults.errors++;
    return send(openAiError(500, 'The server had an error while processing your request.', 'server_error'));
  }
  const r = handler(sim, read.body);
  if (r.status < 300 && sim.faults.roll(name, 'dropRate')) {
    sim.stats.counters.faults.dropped++;
    res.destroy();
    return;
  }
  send(r);
}

async function handle(sim: Simulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  if (pathname.startsWith(ADMIN_PREFIX)) return handleAdmin(sim, req, res, pathname.slice(ADMIN_PREFIX.length));
  if (pathname.startsWith(`${sim.options.basePath}/`)) return handleApi(sim, req, res, pathname, q < 0 ? '' : url.slice(q + 1));
  if (pathname.startsWith(`${JUDGE_PREFIX}/`)) return handleJudge(sim, req, res, pathname);
  sendJson(res, 404, { error: ApiError.notFound });
}

/** The simulator's HTTP server (node:http, keep-alive). */
export function createSimServer(sim: Simulator): Server {
  return createServer((req, res) => {
    handle(sim, req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, { error: 'internal simulator error', message: err instanceof Error ? err.message : String(err) });
    });
  });
}
