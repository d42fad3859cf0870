import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** What a proxy in front of the API answers when the API's response does not reach it: not JSON, not the API's words. */
export const BAD_GATEWAY_PAGE = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Reads the request body as UTF-8. Past `maxBytes` the rest is discarded and the result is
 * `too-large`; a client that goes away before the end gives `aborted`.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('close', () => {
      if (!req.complete) resolve({ ok: false, reason: 'aborted' });
    });
  });
}

/** Parses JSON; returns `invalid` instead of throwing. */
export function parseJson<T>(text: string, invalid: T): unknown {
  if (text.length === 0) return invalid;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return invalid;
  }
}

/** The client address: the socket's, or the first `X-Forwarded-For` entry when trusted. */
export function clientIp(req: IncomingMessage, trustForwardedFor: boolean): string {
  if (trustForwardedFor) {
    const header = req.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
