/**
 * The one way sitechat prints a URL it was given (a base URL, a store URL, a judge's): in an error, a log line, a
 * report. A URL's userinfo, query and fragment may hold a password, a token or a signed code (`?code=…`, `?sig=…`,
 * `user:password@`), so they are never shown: each is replaced by `[REDACTED]`, so the reader still sees that one
 * was given. Scheme, host, port and path stay: they are what a person needs to see which address is meant.
 */
import { REDACTED } from './secret';

/**
 * `raw` as it may be printed: `https://[REDACTED]@host:8443/api/v1?[REDACTED]#[REDACTED]`. A text that is no URL at
 * all is cut at its first `?` or `#`, and anything up to an `@` replaced the same way (it may still be a URL with a
 * typo, with its secrets where a URL has them).
 */
export function shownUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const head = raw.split(/[?#]/u, 1)[0] ?? '';
    const at = head.lastIndexOf('@');
    const shown = at === -1 ? head : `${REDACTED}@${head.slice(at + 1)}`;
    return head.length < raw.length ? `${shown}${raw.charAt(head.length)}${REDACTED}` : shown;
  }
  const userinfo = url.username !== '' || url.password !== '';
  const query = url.search !== '';
  const fragment = url.hash !== '';
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  // A bare `/` path is the parser's, not the reader's (`http://host:8080`, as given).
  const href = url.pathname === '/' ? url.href.slice(0, -1) : url.href;
  // The first `//` is the one after the scheme: the userinfo marker goes right after it.
  const bare = userinfo ? href.replace('//', `//${REDACTED}@`) : href;
  return `${bare}${query ? `?${REDACTED}` : ''}${fragment ? `#${REDACTED}` : ''}`;
}

/**
 * The host (and port) of a URL, nothing else: no user, password, path or query. A value that is not a URL gives
 * "unknown" rather than itself (it could be anything, a key pasted in the wrong place included).
 */
export function hostOf(url: string | undefined): string {
  if (!url) return 'unknown';
  try {
    return new URL(url).host || 'unknown';
  } catch {
    return 'unknown';
  }
}
