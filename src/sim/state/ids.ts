import { randomInt, randomUUID } from 'node:crypto';
import { IdFormat } from '../options';
import { isUuid } from '../prng';

/**
 * Characters of opaque ids: what a URL path must percent-encode (`/`, `+`, `=`, a space, `%`, `?`, `#`), what it may
 * leave (`:._~-`) and letters outside ASCII, so a client that builds paths by hand or checks a format trips over them.
 */
const OPAQUE_CHARS = [...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789+/=:._~- %?#éüß語'];
/** Opaque ids start with one of these, so none is `.` or `..` (which no path can carry). */
const OPAQUE_HEADS: Readonly<Record<'request' | 'session', string[]>> = { request: ['r', 'req_', 'Q'], session: ['s', 'sess:', 'T'] };
/** Longest opaque id, in characters (under the 256 a chat body's `session_id` may have). */
const OPAQUE_MAX = 120;

/**
 * A new request or session id. Random, never derived from the seed: a real service never hands out an id twice,
 * not across instances and not across restarts. Opaque ids have lengths from 2 to {@link OPAQUE_MAX}, short ones
 * more often.
 */
export function newId(format: IdFormat, kind: 'request' | 'session'): string {
  if (format === IdFormat.uuid) return randomUUID();
  const heads = OPAQUE_HEADS[kind];
  let id = heads[randomInt(heads.length)] as string;
  const length = 1 + Math.floor(OPAQUE_MAX ** (randomInt(1_000_000) / 1_000_000));
  while (id.length < Math.min(length, OPAQUE_MAX)) id += OPAQUE_CHARS[randomInt(OPAQUE_CHARS.length)];
  return id;
}

/** Whether an id in a path or body has the form this server hands out (UUIDs); opaque-id servers check none. */
export function wellFormedId(format: IdFormat, id: string): boolean {
  return format === IdFormat.opaque || isUuid(id);
}
