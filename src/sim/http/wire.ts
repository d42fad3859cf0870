import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { ErrorBody, RetryAfterFormat, type ResolvedOptions } from '../options';
import { sendJson } from './io';
import type { Reply } from './types';

/**
 * Writes an API reply in the forms the options choose where the spec leaves the form open: the error body (JSON, an
 * HTML page or nothing, §7 rule 3) and fields the spec does not list (a server may add any).
 */
export function sendApiReply(res: ServerResponse, r: Reply, o: ResolvedOptions): void {
  if (r.status >= 400 && o.errorBody !== ErrorBody.json) {
    const text = o.errorBody === ErrorBody.html ? htmlErrorPage(r.status) : '';
    res.writeHead(r.status, { ...(text && { 'content-type': 'text/html; charset=utf-8' }), 'content-length': Buffer.byteLength(text), ...r.headers });
    res.end(text);
    return;
  }
  sendJson(res, r.status, o.extraFields ? withExtraFields(r.body) : r.body, r.headers);
}

/** A framework's error page: it names the status, never the API's `error` string. */
function htmlErrorPage(status: number): string {
  const reason = STATUS_CODES[status] ?? 'Error';
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <title>${status} ${reason}</title>\n</head>\n<body>\n  <h1>${reason}</h1>\n  <p>The server could not complete your request.</p>\n</body>\n</html>\n`;
}

/** Every object of the body gets fields no spec table lists (first, so a spec field is never shadowed). */
function withExtraFields(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withExtraFields);
  if (typeof body !== 'object' || body === null) return body;
  const own = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, withExtraFields(value)]));
  return {
    x_trace_id: randomBytes(8).toString('hex'),
    meta: { served_by: 'sitechat-sim', region: 'local-1', flags: ['beta', 2, true] },
    deprecated_field: null,
    ...own,
  };
}

/** The `Retry-After` header of a 429, if the options send one: seconds, or an HTTP date at least that far ahead. */
export function retryAfterHeader(o: ResolvedOptions, now = Date.now()): Record<string, string> | undefined {
  const seconds = o.retryAfterSeconds;
  if (seconds === null) return undefined;
  if (o.retryAfterFormat === RetryAfterFormat.seconds) return { 'retry-after': String(seconds) };
  // HTTP dates have whole seconds: round up, so the date is never earlier than the wait meant.
  return { 'retry-after': new Date(Math.ceil((now + seconds * 1000) / 1000) * 1000).toUTCString() };
}
