/** The review page's secret: random, in the URL once (as Jupyter does), then a cookie for the page and a header for the API. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_COOKIE = 'sitechat_review_token';
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

/** The token cookie's value from a `Cookie` header. */
export function tokenFromCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return value.join('=');
  }
  return undefined;
}
