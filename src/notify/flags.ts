/**
 * `--notify` / `--notify-on` and the config's `notify` / `notifyOn` → the spec that travels with a run, schedule or
 * cleanup. Errors name the flag or config key. Used by `run`, `schedule create` and `cleanup`.
 */
import { DEFAULT_TRIGGERS, NotifySpecError, parseDestination, parseTriggers, type NotifySpec } from '../domain/notify';

export interface NotifyFlags {
  /** Repeatable: one destination per flag, or several comma-separated. */
  notify?: string[];
  notifyOn?: string;
}

/** The config file's keys (src/config/schema.ts), validated there. */
export interface NotifyConfig {
  notify?: string[];
  notifyOn?: string | string[];
}

/** Commander's collector of a repeatable option. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function splitList(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** The spec, flags over the config; undefined without destinations. Throws NotifySpecError naming the flag or key. */
export function resolveNotifySpec(flags: NotifyFlags, config?: NotifyConfig, configFile = 'the config file'): NotifySpec | undefined {
  const fromFlags = flags.notify !== undefined;
  const raw = fromFlags ? splitList(flags.notify ?? []) : (config?.notify ?? []);
  const where = fromFlags ? '--notify' : `${configFile}: \`notify\``;
  const destinations = raw.map((r) => {
    try {
      return parseDestination(r);
    } catch (err) {
      if (err instanceof NotifySpecError) throw new NotifySpecError(`${where} ${err.message}`);
      throw err;
    }
  });
  const onRaw = flags.notifyOn ?? config?.notifyOn;
  let on = [...DEFAULT_TRIGGERS];
  if (onRaw !== undefined) {
    try {
      on = parseTriggers(onRaw);
    } catch (err) {
      if (err instanceof NotifySpecError) throw new NotifySpecError(`${flags.notifyOn !== undefined ? '--notify-on' : `${configFile}: \`notifyOn\``} ${err.message}`);
      throw err;
    }
  }
  if (destinations.length === 0) {
    if (flags.notifyOn !== undefined) throw new NotifySpecError('--notify-on needs at least one --notify destination');
    return undefined;
  }
  return { destinations, on };
}

