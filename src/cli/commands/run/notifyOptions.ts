/**
 * `--notify` / `--notify-on` (and the config's `notify` / `notifyOn`, and the same flags of `schedule create` and
 * `cleanup`): parsed into the spec that travels with the run, which holds env var NAMES only. Problems are usage
 * problems (exit 2) naming the flag or config key; with the CLI's own worker, a variable that is not set in this
 * process is one too, since that worker is the one that will read it.
 */
import { missingEnv } from '../../../notify/deliver';
import { resolveNotifySpec, type NotifyConfig, type NotifyFlags } from '../../../notify/flags';
import { NotifySpecError, type NotifySpec } from '../../../domain/notify';
import { UsageError } from '../../usageError';

export { collect, type NotifyFlags } from '../../../notify/flags';

/** The spec, flags over the config; undefined without destinations. Throws UsageError naming the flag or key. */
export function resolveNotify(flags: NotifyFlags, config?: NotifyConfig, configFile?: string): NotifySpec | undefined {
  try {
    return resolveNotifySpec(flags, config, configFile);
  } catch (err) {
    if (err instanceof NotifySpecError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * Every problem of the notify settings, for the flag checks: malformed values, and (when this process runs the
 * worker that will send) variables that are not set here.
 */
export function notifyProblems(
  flags: NotifyFlags, config: NotifyConfig | undefined, env: NodeJS.ProcessEnv, embeddedWorker: boolean, configFile?: string,
  why = "this command's own worker sends the notification and reads it from its environment (or run with --no-worker when `sitechat worker` processes have it)",
): string[] {
  let spec: NotifySpec | undefined;
  try {
    spec = resolveNotify(flags, config, configFile);
  } catch (err) {
    if (err instanceof UsageError) return [err.message];
    throw err;
  }
  if (!spec || !embeddedWorker) return [];
  const where = flags.notify !== undefined ? '--notify' : `${configFile ?? 'the config file'}: \`notify\``;
  return spec.destinations.flatMap((d) => missingEnv(d, env).map((name) =>
    `${where} ${d.kind}: ${name} is not set; ${why}`));
}
