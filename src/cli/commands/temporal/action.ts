import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { ChildKind, childEnv } from '../../../temporal/childEnv';
import { locateTemporalCli } from '../../../temporal/cliLocator';
import { ExitCode } from '../../follow/follow';
import { createLogger } from '../../logger';
import { PayloadKeysError } from '../../../codec/errors';
import { codecForTemporalCli, type TemporalCliCodec } from './codec';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs the Temporal CLI with `args`, the terminal inherited, and returns its exit code (128 + the signal's number when
 * a signal ended it, as a shell reports it). Its environment is allow-listed (childEnv): TEMPORAL_* settings pass, so
 * it talks to the server sitechat talks to; sitechat's keys, the store URL and webhook variables do not. With
 * SITECHAT_PAYLOAD_KEYS set it decodes and encodes payloads through a codec server of this process (`temporalCodec`).
 */
export async function temporalAction(args: string[]): Promise<number> {
  const log = createLogger();
  // First: malformed payload keys are a usage error, before a CLI is looked for (or downloaded).
  let codec: TemporalCliCodec | undefined;
  try {
    codec = await codecForTemporalCli(args);
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    return err instanceof PayloadKeysError ? ExitCode.usage : ExitCode.runFailed;
  }
  let path: string | undefined;
  try {
    const cli = await locateTemporalCli({ log: (line) => log.info(line) });
    path = cli.path;
    if (!path) log.error(`no Temporal CLI could be found or installed (${cli.notes.join('; ')}); set TEMPORAL_CLI_PATH to one`);
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
  }
  if (!path) {
    await codec?.close();
    return ExitCode.runFailed;
  }
  // The codec's endpoint and token are added by name: the keys themselves never reach the child.
  const child = spawn(path, args, { stdio: 'inherit', env: { ...childEnv(ChildKind.temporalCli), ...codec?.env } });
  // Ctrl-C reaches the CLI by itself (same process group); a signal sent to sitechat alone is passed on, and
  // either way sitechat stays until the CLI has exited, to hand on its code.
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  try {
    return await new Promise<number>((resolve) => {
      child.once('error', (err) => {
        log.error(`cannot start ${path}: ${err.message}`);
        resolve(ExitCode.runFailed);
      });
      child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0)));
    });
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward);
    await codec?.close();
  }
}
