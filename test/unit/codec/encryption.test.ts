import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { decodeFailure, encodeFailure, loadDataConverter } from '@temporalio/common/lib/internal-non-workflow';
import { describe, expect, it } from 'vitest';
import { dataConverterFor } from '../../../src/codec/dataConverter';
import { EncryptionCodec, MissingKeysCodec, KEY_ID_METADATA } from '../../../src/codec/encryption';
import { PayloadCodecError } from '../../../src/codec/errors';
import { parsePayloadKeys, type PayloadKeys } from '../../../src/codec/keys';
import { keyEntry } from './testKeys';

const QUESTION = { question: 'Can I get a refund for my annual subscription?', email: 'person@example.com' };
const text = (p: Payload): string => `${JSON.stringify(Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('utf8')])))} ${Buffer.from(p.data ?? []).toString('utf8')}`;
const keys = (value: string): PayloadKeys => parsePayloadKeys(value) as PayloadKeys;

async function codecError(work: Promise<unknown>): Promise<PayloadCodecError> {
  const err = await work.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(PayloadCodecError);
  return err as PayloadCodecError;
}

describe('the payload codec (AES-256-GCM, a key id in the metadata)', () => {
  const old = keyEntry('2026-01');
  const current = keyEntry('2026-06');
  const codec = new EncryptionCodec(keys(`${old},${current}`));
  const clear = defaultPayloadConverter.toPayload(QUESTION);

  it('encrypts the whole payload under the newest key and decodes it back as it was', async () => {
    const [sealed] = await codec.encode([clear]);
    expect(text(sealed as Payload)).not.toContain('refund');
    expect(text(sealed as Payload)).not.toContain('json/plain');
    expect(Buffer.from(sealed?.metadata?.encoding ?? []).toString()).toBe('binary/encrypted');
    expect(Buffer.from(sealed?.metadata?.[KEY_ID_METADATA] ?? []).toString()).toBe('2026-06');
    const [back] = await codec.decode([sealed as Payload]);
    expect(defaultPayloadConverter.fromPayload(back as Payload)).toEqual(QUESTION);
    // A fresh IV each time: equal inputs do not show as equal ciphertexts.
    const [again] = await codec.encode([clear]);
    expect(Buffer.from(again?.data ?? []).equals(Buffer.from(sealed?.data ?? []))).toBe(false);
  });

  it('decrypts payloads of an older key after a rotation', async () => {
    const [sealedBefore] = await new EncryptionCodec(keys(old)).encode([clear]);
    const [back] = await codec.decode([sealedBefore as Payload]);
    expect(defaultPayloadConverter.fromPayload(back as Payload)).toEqual(QUESTION);
  });

  it('passes clear payloads through decode: histories from before the keys were set keep working', async () => {
    expect(await codec.decode([clear])).toEqual([clear]);
  });

  it('names the key id it does not hold', async () => {
    const [sealed] = await new EncryptionCodec(keys(keyEntry('retired'))).encode([clear]);
    const err = await codecError(codec.decode([sealed as Payload]));
    expect(err.message).toContain('key id "retired"');
    expect(err.message).toBe('a payload is encrypted with key id "retired", which SITECHAT_PAYLOAD_KEYS does not hold (it holds "2026-01", "2026-06"): add that key');
    expect(err.keyId).toBe('retired');
  });

  it('refuses a wrong key under the right id, an altered payload and a swapped key id', async () => {
    const [sealed] = await codec.encode([clear]);
    const wrong = new EncryptionCodec(keys(keyEntry('2026-06')));
    expect((await codecError(wrong.decode([sealed as Payload]))).message).toMatch(/key id "2026-06" does not decrypt/u);
    const data = Buffer.from(sealed?.data ?? []);
    data[20] = (data[20] ?? 0) ^ 1;
    expect((await codecError(codec.decode([{ ...sealed, data }]))).message).toMatch(/does not decrypt/u);
    // The key id is authenticated with the data: relabelling a payload for another key fails even if that key matched.
    const sameKey = keyEntry('x').replace(/^x:/u, '');
    const [underA] = await new EncryptionCodec(keys(`a:${sameKey}`)).encode([clear]);
    const relabelled = { ...underA, metadata: { ...underA?.metadata, [KEY_ID_METADATA]: Buffer.from('b') } };
    await codecError(new EncryptionCodec(keys(`a:${sameKey},b:${sameKey}`)).decode([relabelled]));
    expect((await codecError(codec.decode([{ ...sealed, metadata: { encoding: sealed?.metadata?.encoding as Uint8Array } }]))).message).toMatch(/names no key/u);
  });

  it('without keys: payloads stay clear, and an encrypted one is refused with what to set', async () => {
    const none = new MissingKeysCodec();
    expect(await none.encode([clear])).toEqual([clear]);
    expect(await none.decode([clear])).toEqual([clear]);
    const [sealed] = await codec.encode([clear]);
    const err = await codecError(none.decode([clear, sealed as Payload]));
    expect(err.message).toMatch(/^encrypted payloads: set SITECHAT_PAYLOAD_KEYS/u);
    expect(err.message).toContain('key id "2026-06"');
  });

  it("the data converter with keys encrypts failure messages too (the SDK loads its failure converter by path)", async () => {
    const converter = loadDataConverter(dataConverterFor(keys(current)));
    const failure = converter.failureConverter.errorToFailure(new Error(`no answer to ${QUESTION.question}`), converter.payloadConverter);
    const sealed = await encodeFailure(converter.payloadCodecs, failure);
    expect(JSON.stringify(sealed)).not.toContain('refund');
    expect(sealed.message).toBe('Encoded failure');
    const back = converter.failureConverter.failureToError(await decodeFailure(converter.payloadCodecs, sealed), converter.payloadConverter);
    expect(back.message).toBe(`no answer to ${QUESTION.question}`);
    // A codec's own error (a key id, by name) stays readable: it is what the history and the Web UI must show.
    const codecFailure = converter.failureConverter.errorToFailure(new PayloadCodecError('a payload is encrypted with key id "old"'), converter.payloadConverter);
    expect(codecFailure.message).toBe('a payload is encrypted with key id "old"');
    expect(codecFailure.encodedAttributes).toBeFalsy();
    // Without keys a failure is written as before.
    const plain = loadDataConverter(dataConverterFor(undefined));
    expect(plain.failureConverter.errorToFailure(new Error('visible'), plain.payloadConverter).message).toBe('visible');
  });
});
