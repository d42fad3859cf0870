import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** `error` of the 401 an admin route answers without the admin token. */
export const ADMIN_TOKEN_REQUIRED = 'admin token required';

/** True for addresses only this machine can reach: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * The admin token in force: the one given, else a fresh random one when the simulator listens beyond
 * loopback (admin routes reset state, rewrite faults and show every tenant's messages), else none —
 * on loopback the admin routes stay open, as tests and local use expect.
 */
export function resolveAdminToken(given: string | undefined, host: string): string | null {
  if (given) return given;
  return isLoopback(host) ? null : randomBytes(24).toString('base64url');
}

/** The token a request carries, from `Authorization: Bearer …` or `X-Admin-Token`. */
function presented(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  const header = headers['x-admin-token'];
  return Array.isArray(header) ? header[0] : header;
}

/** True when admin routes are open or the request carries the token (compared in constant time). */
export function adminAllowed(token: string | null, headers: IncomingHttpHeaders): boolean {
  if (token === null) return true;
  const got = presented(headers);
  if (got === undefined) return false;
  const a = Buffer.from(got);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
