import { extname, join } from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, MissingKeysCodec } from './encryption';
import { PAYLOAD_KEYS_ENV } from './errors';
import { parsePayloadKeys, type PayloadKeys } from './keys';

/** ./failureConverter as the SDK will `require` it: the .js of the build, or the .ts when tests run the sources. */
const FAILURE_CONVERTER_PATH = join(__dirname, `failureConverter${extname(__filename)}`);

/**
 * The data converter of every Temporal client and worker sitechat makes: with keys, payloads are encrypted and
 * failure messages with them; without, payloads stay clear and an encrypted one is refused with a clear message.
 * Search attributes never pass a codec (Temporal indexes them): they stay clear by design.
 */
export function dataConverterFor(keys: PayloadKeys | undefined): DataConverter {
  if (!keys) return { payloadCodecs: [new MissingKeysCodec()] };
  return { payloadCodecs: [new EncryptionCodec(keys)], failureConverterPath: FAILURE_CONVERTER_PATH };
}

/** {@link dataConverterFor} the keys of SITECHAT_PAYLOAD_KEYS; a malformed value throws `PayloadKeysError`. */
export function payloadDataConverter(env: NodeJS.ProcessEnv = process.env): DataConverter {
  return dataConverterFor(parsePayloadKeys(env[PAYLOAD_KEYS_ENV]));
}
