import { ScheduleOverlapPolicy, type ScheduleOptions } from '@temporalio/client';
import { DurationError, parseDuration } from '../config/duration';
import type { OverlapFlagName } from './overlapFlags';

/** A flag or argument of `sitechat schedule` that cannot be used (exit code 2). */
export class ScheduleUsageError extends Error {
  override name = 'ScheduleUsageError';
}

/** `--overlap` values, as typed on the command line → Temporal's overlap policies. */
export const OverlapFlag: Readonly<Record<OverlapFlagName, ScheduleOverlapPolicy>> = {
  skip: ScheduleOverlapPolicy.SKIP,
  'buffer-one': ScheduleOverlapPolicy.BUFFER_ONE,
  'buffer-all': ScheduleOverlapPolicy.BUFFER_ALL,
  'cancel-other': ScheduleOverlapPolicy.CANCEL_OTHER,
  'terminate-other': ScheduleOverlapPolicy.TERMINATE_OTHER,
  'allow-all': ScheduleOverlapPolicy.ALLOW_ALL,
};
export type OverlapFlag = OverlapFlagName;

/** Flags every `schedule create` shares. */
export interface SchedulePolicyFlags {
  cron: string;
  /** Schedule id. @default derived from the kind and the site (and the dataset for nightly runs) */
  id?: string;
  /** What happens when a run is due while the previous one still runs. @default "skip" */
  overlap?: string;
  /** How late a missed run (server down) may still start. @default "1h" */
  catchupWindow?: string;
  /** Pause the schedule when a run fails. @default false */
  pauseOnFailure?: boolean;
  /** IANA time zone of the cron expression. @default UTC */
  timezone?: string;
  note?: string;
  /** Create it paused. @default false */
  paused?: boolean;
}

/** Temporal does not accept a catch-up window below 10 s. */
const MIN_CATCHUP_MS = 10_000;
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const CRON_FIELD = /^[\d*?/,\-A-Za-z#LW]+$/;

/** Schedule ids become part of run ids and folder names: letters, digits, `.`, `_`, `-`. */
export function checkScheduleId(id: string): string {
  if (!ID.test(id)) throw new ScheduleUsageError(`schedule id must be 1–100 letters, digits, ".", "_" or "-" (starting with a letter or digit), got ${JSON.stringify(id)}`);
  return id;
}

/** A readable id from parts: `nightly-demo-site-demo`. */
export function defaultScheduleId(...parts: string[]): string {
  return parts.join('-').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-+/g, '-').replace(/^[-._]+|[-._]+$/g, '').slice(0, 100);
}

/** A quick shape check (5–7 fields, or an `@daily`-style macro); the Temporal server is the final judge. */
export function checkCron(cron: string): string {
  const text = cron.trim();
  const fields = text.split(/\s+/);
  const ok = /^@(yearly|annually|monthly|weekly|daily|midnight|hourly|every\s+\S+)$/i.test(text)
    || (fields.length >= 5 && fields.length <= 7 && fields.every((f) => CRON_FIELD.test(f)));
  if (!ok) throw new ScheduleUsageError(`--cron must be a cron expression such as "0 2 * * *" (minute hour day month weekday), got ${JSON.stringify(cron)}`);
  return text;
}

function checkTimezone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    throw new ScheduleUsageError(`--timezone must be an IANA time zone such as Europe/Berlin, got ${JSON.stringify(tz)}`);
  }
}

/** Spec, policies and initial state of a schedule from the shared flags. */
export function schedulePolicies(flags: SchedulePolicyFlags): Pick<ScheduleOptions, 'spec' | 'policies' | 'state'> {
  const overlapKey = (flags.overlap ?? 'skip').toLowerCase();
  if (!(overlapKey in OverlapFlag)) {
    throw new ScheduleUsageError(`--overlap must be one of ${Object.keys(OverlapFlag).join(', ')}, got ${JSON.stringify(flags.overlap)}`);
  }
  let catchupWindow: number;
  try {
    catchupWindow = parseDuration(flags.catchupWindow ?? '1h');
  } catch (err) {
    throw new ScheduleUsageError(`--catchup-window: ${err instanceof DurationError ? err.message : String(err)}`);
  }
  if (catchupWindow < MIN_CATCHUP_MS) throw new ScheduleUsageError('--catchup-window must be at least 10s (a Temporal minimum)');
  return {
    spec: { cronExpressions: [checkCron(flags.cron)], timezone: flags.timezone === undefined ? undefined : checkTimezone(flags.timezone) },
    policies: { overlap: OverlapFlag[overlapKey as OverlapFlag], catchupWindow, pauseOnFailure: flags.pauseOnFailure ?? false },
    state: { paused: flags.paused ?? false, note: flags.note },
  };
}
