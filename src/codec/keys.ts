import { PAYLOAD_KEYS_ENV, PayloadKeysError } from './errors';

/** AES-256 takes 32-byte keys. */
export const KEY_BYTES = 32;

/** Key ids travel in every payload's metadata and in error messages: short, printable, no separators of the list. */
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/u;

export interface PayloadKey {
  id: string;
  /** 32 bytes. Never printed: errors name the id and the entry's place in the list only. */
  key: Buffer;
}

export interface PayloadKeys {
  /** The newest key (the list's last): every payload is encrypted with it. */
  encrypting: PayloadKey;
  /** Every key by id, the encrypting one included: payloads encrypted with older keys still decrypt. */
  byId: ReadonlyMap<string, Buffer>;
}

/** Standard or URL-safe base64, padding optional; anything else (spaces, stray characters) is refused. */
function decodeBase64(text: string): Buffer | undefined {
  const unpadded = text.replace(/-/gu, '+').replace(/_/gu, '/').replace(/={1,2}$/u, '');
  if (!/^[A-Za-z0-9+/]+$/u.test(unpadded) || unpadded.length % 4 === 1) return undefined;
  const bytes = Buffer.from(unpadded, 'base64');
  // Node skips what it cannot read; a round trip shows whether every character was part of the key.
  return bytes.toString('base64').replace(/=+$/u, '') === unpadded ? bytes : undefined;
}

/**
 * Reads `SITECHAT_PAYLOAD_KEYS`: `id:base64key` entries separated by commas, oldest first; the last one encrypts,
 * every one decrypts. Rotation appends a new key and drops an old one only once no history needs it. Undefined when
 * the variable is unset; set but empty is an error (a secret that failed to arrive must not mean clear text).
 */
export function parsePayloadKeys(value: string | undefined): PayloadKeys | undefined {
  if (value === undefined) return undefined;
  const fail = (problem: string): never => {
    throw new PayloadKeysError(`${PAYLOAD_KEYS_ENV}: ${problem}; expected id:base64key[,id:base64key…] with 32-byte keys, the last one encrypting (docs/deployment.md, "Encrypted payloads")`);
  };
  if (value.trim() === '') fail('set but empty (unset it to run without encryption)');
  const byId = new Map<string, Buffer>();
  let last: PayloadKey | undefined;
  value.split(',').forEach((raw, i) => {
    const entry = raw.trim();
    const where = `entry ${i + 1}`;
    const colon = entry.indexOf(':');
    if (colon < 0) fail(`${where} has no "id:" before its key`);
    const id = entry.slice(0, colon);
    if (!KEY_ID.test(id)) fail(`${where}: the key id ${JSON.stringify(id.slice(0, 70))} must be 1–64 characters of A–Z a–z 0–9 . _ -`);
    if (byId.has(id)) fail(`${where}: the key id "${id}" is given twice`);
    const key = decodeBase64(entry.slice(colon + 1).trim());
    if (!key) fail(`${where} (key id "${id}"): the key is not base64`);
    else if (key.length !== KEY_BYTES) fail(`${where} (key id "${id}"): the key is ${key.length} bytes, AES-256 needs ${KEY_BYTES} (\`openssl rand -base64 32\` makes one)`);
    else {
      byId.set(id, key);
      last = { id, key };
    }
  });
  return { encrypting: last as PayloadKey, byId };
}
