import { EncryptionCodec } from '../../../codec/encryption';
import { PAYLOAD_KEYS_ENV } from '../../../codec/errors';
import { parsePayloadKeys, type PayloadKeys } from '../../../codec/keys';
import { startCodecServer } from '../../../codec/server';
import { newToken } from '../../../shared/serverGuard';
import { ExitCode } from '../../follow/follow';
import { createLogger } from '../../logger';
import { UsageError } from '../../usageError';
import { DEFAULT_UI_ORIGINS, type CodecServerFlags } from './flags';

/** A token that outlives a restart, so the Web UI's codec setting keeps working: the same rules as a generated one. */
export const CODEC_TOKEN_ENV = 'SITECHAT_CODEC_TOKEN';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function portOf(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/u.test(raw) || n > 65_535) throw new UsageError(`--port must be a TCP port from 0 to 65535, got ${JSON.stringify(raw)}`);
  return n;
}

/** `--ui-origin`: scheme, host and port, as a browser sends it in `Origin` (no path, no trailing slash). */
function originOf(raw: string): string {
  let origin: string | undefined;
  try {
    origin = new URL(raw).origin;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin === 'null' || origin !== raw) throw new UsageError(`--ui-origin must be an origin like http://127.0.0.1:8233 (scheme, host, port; no path), got ${JSON.stringify(raw)}`);
  return origin;
}

function tokenFromEnv(env: NodeJS.ProcessEnv): string {
  const token = env[CODEC_TOKEN_ENV];
  if (token === undefined) return newToken();
  if (!/^[A-Za-z0-9._~-]{24,}$/u.test(token)) throw new UsageError(`${CODEC_TOKEN_ENV} must be at least 24 characters of A–Z a–z 0–9 . _ ~ - (it goes into a URL path)`);
  return token;
}

/** Everything the command needs, checked before it listens. */
function settings(flags: CodecServerFlags, env: NodeJS.ProcessEnv): { keys: PayloadKeys; port: number; origins: string[]; token: string } {
  const keys = parsePayloadKeys(env[PAYLOAD_KEYS_ENV]);
  if (!keys) throw new UsageError(`${PAYLOAD_KEYS_ENV} is not set: the codec server decodes with the workers' keys (docs/deployment.md, "Encrypted payloads")`);
  return { keys, port: portOf(flags.port), origins: (flags.uiOrigin.length > 0 ? flags.uiOrigin : DEFAULT_UI_ORIGINS).map(originOf), token: tokenFromEnv(env) };
}

/**
 * `sitechat codec-server`: serves the payload codec of SITECHAT_PAYLOAD_KEYS to the Temporal Web UI and CLI until a
 * signal. The lines to configure them go to stdout (they hold the token: this terminal's only); the rest to stderr.
 */
export async function codecServerAction(flags: CodecServerFlags, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const log = createLogger();
  let s: ReturnType<typeof settings>;
  try {
    s = settings(flags, env);
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    return ExitCode.usage;
  }
  let server;
  try {
    server = await startCodecServer({ codec: new EncryptionCodec(s.keys), port: s.port, token: s.token, uiOrigins: s.origins });
  } catch (err) {
    log.error(`cannot listen on 127.0.0.1:${s.port}: ${err instanceof Error ? err.message : String(err)} (pick another with --port)`);
    return ExitCode.runFailed;
  }
  log.info(`codec server on ${server.endpoint}: decodes with key ids ${[...s.keys.byId.keys()].map((id) => `"${id}"`).join(', ')}, encodes with "${s.keys.encrypting.id}"; CORS for ${s.origins.join(', ')}`);
  // A token of SITECHAT_CODEC_TOKEN is named, never printed: it outlives this start, and this output may be kept
  // (a service's journal, a CI log). The lines stay ready to paste: a shell expands the variable.
  const given = env[CODEC_TOKEN_ENV] !== undefined;
  log.info('for the Temporal CLI (temporal workflow show, describe, …):');
  log.out(`export TEMPORAL_CODEC_ENDPOINT=${server.endpoint} TEMPORAL_CODEC_AUTH=${given ? `"Bearer $${CODEC_TOKEN_ENV}"` : `'Bearer ${s.token}'`}`);
  log.info('for the Web UI (its codec server setting, or `temporal server start-dev --ui-codec-endpoint`): the endpoint with the token as its path');
  log.out(given ? `${server.endpoint}/$${CODEC_TOKEN_ENV}` : server.endpointWithToken);
  log.info(`Ctrl-C stops it${given ? '' : `; the token is new each start (set ${CODEC_TOKEN_ENV} to keep one)`}`);
  const signal = await new Promise<NodeJS.Signals>((done) => {
    for (const sig of STOP_SIGNALS) process.once(sig, done);
  });
  log.info(`${signal}: stopping the codec server`);
  await server.close();
  return ExitCode.ok;
}
