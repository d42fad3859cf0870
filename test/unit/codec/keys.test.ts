import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PayloadKeysError } from '../../../src/codec/errors';
import { parsePayloadKeys } from '../../../src/codec/keys';
import { isUsageError } from '../../../src/cli/usageErrors';

const KEY_A = randomBytes(32);
const KEY_B = randomBytes(32);

function refused(value: string): PayloadKeysError {
  try {
    parsePayloadKeys(value);
  } catch (err) {
    expect(err).toBeInstanceOf(PayloadKeysError);
    return err as PayloadKeysError;
  }
  throw new Error(`${value} was accepted`);
}

describe('SITECHAT_PAYLOAD_KEYS', () => {
  it('is off when unset', () => {
    expect(parsePayloadKeys(undefined)).toBeUndefined();
  });

  it('reads id:base64key entries, oldest first: the last one encrypts, every one decrypts', () => {
    const keys = parsePayloadKeys(` 2026-01:${KEY_A.toString('base64')} , 2026-06:${KEY_B.toString('base64')}`);
    expect(keys?.encrypting.id).toBe('2026-06');
    expect(keys?.encrypting.key.equals(KEY_B)).toBe(true);
    expect([...(keys?.byId.keys() ?? [])]).toEqual(['2026-01', '2026-06']);
    expect(keys?.byId.get('2026-01')?.equals(KEY_A)).toBe(true);
  });

  it('takes URL-safe base64 and keys without padding', () => {
    const urlSafe = KEY_A.toString('base64url');
    expect(parsePayloadKeys(`k:${urlSafe}`)?.encrypting.key.equals(KEY_A)).toBe(true);
    expect(parsePayloadKeys(`k:${KEY_B.toString('base64').replace(/=+$/u, '')}`)?.encrypting.key.equals(KEY_B)).toBe(true);
  });

  it('refuses what would run in clear or with a key it did not mean, naming the entry and never the key', () => {
    const b64 = KEY_A.toString('base64');
    const cases: [string, RegExp][] = [
      ['', /set but empty/u],
      ['   ', /set but empty/u],
      [b64, /entry 1 has no "id:"/u],
      [`a:${b64},a:${KEY_B.toString('base64')}`, /entry 2: the key id "a" is given twice/u],
      [`a b:${b64}`, /entry 1: the key id "a b" must be/u],
      [`:${b64}`, /entry 1: the key id "" must be/u],
      [`a:${b64},`, /entry 2 has no "id:"/u],
      [`a:${b64.slice(0, 20)}!${b64.slice(21)}`, /entry 1 \(key id "a"\): the key is not base64/u],
      [`a:${b64.slice(0, -4)}`, /entry 1 \(key id "a"\): the key is 30 bytes, AES-256 needs 32/u],
      [`a:${randomBytes(16).toString('base64')}`, /the key is 16 bytes/u],
      ['a:', /the key is not base64/u],
    ];
    for (const [value, message] of cases) {
      const err = refused(value);
      expect(err.message, value).toMatch(message);
      expect(err.message).toMatch(/^SITECHAT_PAYLOAD_KEYS: /u);
      expect(err.message).not.toContain(b64.slice(0, 12));
      expect(isUsageError(err), 'a settings error: exit 2').toBe(true);
    }
  });
});
