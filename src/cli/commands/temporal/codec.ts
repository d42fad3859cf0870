import { EncryptionCodec } from '../../../codec/encryption';
import { PAYLOAD_KEYS_ENV } from '../../../codec/errors';
import { parsePayloadKeys } from '../../../codec/keys';
import { startCodecServer } from '../../../codec/server';
import { newToken } from '../../../shared/serverGuard';

/** The Temporal CLI's own settings for a codec server (the same as `--codec-endpoint` and `--codec-auth`). */
const ENDPOINT_ENV = 'TEMPORAL_CODEC_ENDPOINT';
const AUTH_ENV = 'TEMPORAL_CODEC_AUTH';

export interface TemporalCliCodec {
  /** Variables for the Temporal CLI's environment: the endpoint and its one-time token. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * With SITECHAT_PAYLOAD_KEYS set, a codec server for one `sitechat temporal …`: on a free loopback port, with a token
 * made for this call, handed to the Temporal CLI in its environment (readable by this user only, unlike arguments,
 * which every user sees in `ps`). So `workflow show` prints, and `workflow start --input` sends, what the workers see.
 * Nothing when there are no keys, or when the user points the CLI at a codec server already.
 */
export async function codecForTemporalCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<TemporalCliCodec | undefined> {
  const keys = parsePayloadKeys(env[PAYLOAD_KEYS_ENV]);
  if (!keys || env[ENDPOINT_ENV] || args.some((a) => a === '--codec-endpoint' || a.startsWith('--codec-endpoint='))) return undefined;
  const token = newToken();
  const server = await startCodecServer({ codec: new EncryptionCodec(keys), token });
  return { env: { [ENDPOINT_ENV]: server.endpoint, [AUTH_ENV]: `Bearer ${token}` }, close: () => server.close() };
}
