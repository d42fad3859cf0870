/**
 * The review page's secret and the server's guards.
 *
 * The token travels in the URL's fragment (`http://127.0.0.1:PORT/#token=…`): a browser never sends a fragment to a
 * server, so it is in no request line, log or `Referer`. The page's script reads it, keeps it in memory and sends it
 * as the `X-Review-Token` header. No cookie: cookies are not bound to a port, so a cookie of 127.0.0.1 is sent to, and
 * readable by, every other server on 127.0.0.1 (any port), whatever its name or `SameSite`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_HEADER = 'x-review-token';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time: both sides hashed to the same length first, so neither the length nor a prefix leaks. */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/** Names of this machine that no DNS answer can point elsewhere (`localhost` resolves locally in browsers). */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Addresses that bind every interface: the Host is then any address of the machine. */
const WILDCARDS = new Set(['0.0.0.0', '[::]']);
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/u;

/** An address as a URL's host: IPv6 in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** `host` (a name, an IPv4 or IPv6 address, bracketed or not) as a URL's hostname gives it; undefined if none. */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${urlHost(host)}/`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request's `Host` header names this server: a loopback name or the bound address, with the bound port. A
 * page on another site that a DNS answer later points at 127.0.0.1 ("DNS rebinding") sends its own name as Host, and
 * is refused before anything else. Bound to every interface (`--host 0.0.0.0`), any IP address is accepted too: a
 * name can be rebound, an address cannot.
 */
export function hostAllowed(header: string | undefined, bound: { host: string; port: number }): boolean {
  if (!header) return false;
  let url: URL;
  try {
    url = new URL(`http://${header}/`);
  } catch {
    return false;
  }
  // Nothing but a host and a port: no user, no path.
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return false;
  if (Number(url.port || 80) !== bound.port) return false;
  const boundName = hostnameOf(bound.host);
  if (LOOPBACK_NAMES.has(url.hostname) || url.hostname === boundName) return true;
  return boundName !== undefined && WILDCARDS.has(boundName) && IP_LITERAL.test(url.hostname);
}
