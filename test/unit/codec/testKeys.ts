import { randomBytes } from 'node:crypto';

/** A `SITECHAT_PAYLOAD_KEYS` entry with a fresh random key. */
export function keyEntry(id: string): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}
