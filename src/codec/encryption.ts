import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { PAYLOAD_KEYS_ENV, PayloadCodecError } from './errors';
import type { PayloadKeys } from './keys';

/** The `encoding` of an encrypted payload, as Temporal's encryption samples name it. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** Metadata naming the key a payload was encrypted with, so that older keys still decrypt after a rotation. */
export const KEY_ID_METADATA = 'encryption-key-id';

const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const ProtoPayload = temporal.api.common.v1.Payload;
const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const text = (bytes: Uint8Array | null | undefined): string | undefined => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

/** Whether a payload is one this module encrypted (or another process with the same format). */
export function isEncrypted(payload: Payload): boolean {
  return text(payload.metadata?.[METADATA_ENCODING_KEY]) === ENCRYPTED_ENCODING;
}

/** The key id an encrypted payload names, if any. */
export function keyIdOf(payload: Payload): string | undefined {
  return text(payload.metadata?.[KEY_ID_METADATA]);
}

/**
 * AES-256-GCM over the whole payload (its metadata too, so even the payload's type is hidden): data is
 * IV (12 bytes) ‖ ciphertext ‖ tag (16 bytes), the key id is authenticated with it, and the metadata says
 * `encoding: binary/encrypted` and `encryption-key-id: <id>`. Clear payloads pass decode as they are: histories
 * from before the keys were set keep replaying (docs/deployment.md, "Encrypted payloads").
 */
export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly keys: PayloadKeys) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const { id, key } = this.keys.encrypting;
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(utf8(id));
      const sealed = Buffer.concat([iv, cipher.update(ProtoPayload.encode(payload).finish()), cipher.final(), cipher.getAuthTag()]);
      return { metadata: { [METADATA_ENCODING_KEY]: utf8(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: utf8(id) }, data: sealed };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? this.decrypt(payload) : payload));
  }

  private decrypt(payload: Payload): Payload {
    const id = keyIdOf(payload);
    if (id === undefined) throw new PayloadCodecError(`an encrypted payload names no key (no ${KEY_ID_METADATA} in its metadata): it was not written by sitechat`);
    const key = this.keys.byId.get(id);
    if (!key) {
      throw new PayloadCodecError(`a payload is encrypted with key id "${id}", which ${PAYLOAD_KEYS_ENV} does not hold (it holds ${[...this.keys.byId.keys()].map((k) => `"${k}"`).join(', ')}): add that key`, id);
    }
    const data = Buffer.from(payload.data ?? []);
    try {
      if (data.length < IV_BYTES + TAG_BYTES) throw new Error('too short');
      const decipher = createDecipheriv(CIPHER, key, data.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(utf8(id));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      const { metadata, data: inner } = ProtoPayload.decode(plain);
      return { metadata, data: inner };
    } catch {
      throw new PayloadCodecError(`a payload encrypted with key id "${id}" does not decrypt with the key ${PAYLOAD_KEYS_ENV} gives that id: the key is not the one it was encrypted with (or the payload was altered)`, id);
    }
  }
}

/**
 * The codec of a process without keys: it writes clear payloads, as before encryption existed, and refuses to hand
 * on encrypted ones, which the JSON converter would otherwise fail on with "Unknown encoding: binary/encrypted".
 */
export class MissingKeysCodec implements PayloadCodec {
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads;
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    const encrypted = payloads.find(isEncrypted);
    if (encrypted) {
      const id = keyIdOf(encrypted);
      throw new PayloadCodecError(`encrypted payloads: set ${PAYLOAD_KEYS_ENV} to the workers' keys (this process has none${id ? `; the payload names key id "${id}"` : ''})`, id);
    }
    return payloads;
  }
}
