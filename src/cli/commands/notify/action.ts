import { randomBytes } from 'node:crypto';
import { loadRunConfig, ConfigError } from '../../../config';
import { sampleMessage } from '../../../notify/build';
import { REPORT_BASE_URL_VARIABLE } from '../../../notify/message';
import { deliver } from '../../../notify/deliver';
import type { NotificationLedger } from '../../../store/store';
import { outcomeLine } from '../../../domain/notify';
import { ExitCode } from '../../follow/follow';
import { createLogger, type Logger } from '../../logger';
import { notifyProblems, resolveNotify } from '../run/notifyOptions';
import { UsageError } from '../../usageError';
import type { NotifyFlags } from '../../../notify/flags';

export interface NotifyTestFlags extends NotifyFlags {
  config?: string;
}

/** A test message is not a run's notification: nothing is recorded, nothing de-duplicated. */
const NO_LEDGER: NotificationLedger = { get: () => Promise.resolve(undefined), put: () => Promise.resolve() };

/**
 * `sitechat notify test`: the sample message to every destination, once each (no retries: the point is to see
 * what the receiver answers). Exit 0 when all took it, 3 when any refused or could not be reached, 2 for bad flags
 * or unset variables.
 */
export async function notifyTestAction(flags: NotifyTestFlags, io: { log?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  const env = io.env ?? process.env;
  let spec;
  try {
    const config = flags.config !== undefined ? await loadRunConfig(flags.config) : undefined;
    const problems = notifyProblems(flags, config, env, true, flags.config, 'this command sends the sample from this process and reads the URL and secret from its environment');
    if (problems.length > 0) throw new UsageError(problems.join('\n'));
    spec = resolveNotify(flags, config, flags.config);
    if (!spec) throw new UsageError('no destination: pass --notify slack:ENV (teams:ENV, webhook:URL_ENV:SECRET_ENV), or --config with `notify`');
  } catch (err) {
    if (!(err instanceof UsageError || err instanceof ConfigError)) throw err;
    for (const line of err.message.split('\n')) log.error(line);
    return ExitCode.usage;
  }
  const message = sampleMessage({ reportBaseUrl: env[REPORT_BASE_URL_VARIABLE]?.trim() || undefined });
  let failed = 0;
  for (const d of spec.destinations) {
    const { outcome, retry } = await deliver(d, message, `test-${randomBytes(12).toString('hex')}`, { ledger: NO_LEDGER, env, lastAttempt: true, test: true });
    if (outcome.status === 'delivered') log.out(outcomeLine(outcome));
    else {
      failed++;
      log.error(outcomeLine({ ...outcome, error: retry?.reason ?? outcome.error }));
    }
  }
  return failed === 0 ? ExitCode.ok : ExitCode.runFailed;
}
