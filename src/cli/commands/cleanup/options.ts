import { DurationError, parseDuration } from '../../../config/duration';
import { MAX_PAGE_SIZE, validateCleanupInput } from '../../../cleanup/rule';
import type { CleanupInput } from '../../../cleanup/types';
import { resolveNotifySpec } from '../../../notify/flags';
import { NotifySpecError } from '../../../domain/notify';

/** Idle time used when neither `--idle-for` nor `--created-before` is given. */
export const DEFAULT_IDLE_FOR = '7d';

/** Cleanup flags as the CLI (and `schedule create cleanup`) receive them. */
export interface CleanupFlags {
  site?: string;
  email?: string;
  idleFor?: string;
  createdBefore?: string;
  max?: string;
  dryRun?: boolean;
  pageSize?: string;
  /** `--notify kind:ENV` (repeatable) and `--notify-on`, as for runs. */
  notify?: string[];
  notifyOn?: string;
}

/** A flag value that cannot be used; the CLI exits with the usage code. */
export class CleanupOptionError extends Error {
  override name = 'CleanupOptionError';
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * `2026-01-31` (midnight UTC) or a date-time with a zone (`2026-01-31T12:00:00Z`, `…+02:00`) → ISO instant. A
 * date-time without a zone is rejected: it would mean a different instant on every worker.
 */
export function parseInstant(raw: string, flag = '--created-before'): string {
  const text = raw.trim();
  const ms = DATE_ONLY.test(text) ? Date.parse(`${text}T00:00:00Z`) : WITH_ZONE.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new CleanupOptionError(`${flag} must be a date (2026-01-31, midnight UTC) or a date-time with a zone (2026-01-31T12:00:00Z), got ${JSON.stringify(raw)}`);
  }
  return new Date(ms).toISOString();
}

function wholeNumber(flag: string, raw: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > max) throw new CleanupOptionError(`${flag} must be a whole number from 1 to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Flags → workflow input. With no `--idle-for` and no `--created-before`, sessions idle for {@link DEFAULT_IDLE_FOR}
 * are selected (also with `--email`: use `--idle-for 0s` to close all of a user's open sessions).
 */
export function cleanupInputFromFlags(flags: CleanupFlags, defaults: { siteId?: string }): CleanupInput {
  const siteId = flags.site ?? defaults.siteId;
  if (siteId === undefined || siteId.trim() === '') throw new CleanupOptionError('no site given: pass --site ID or set SITECHAT_SITE_ID');
  if (flags.email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(flags.email.trim())) {
    throw new CleanupOptionError(`--email must be an email address, got ${JSON.stringify(flags.email)}`);
  }
  let idleFor = flags.idleFor;
  if (idleFor === undefined && flags.createdBefore === undefined) idleFor = DEFAULT_IDLE_FOR;
  let idleForMs: number | undefined;
  try {
    idleForMs = idleFor === undefined ? undefined : parseDuration(idleFor);
  } catch (err) {
    throw new CleanupOptionError(`--idle-for: ${err instanceof DurationError ? err.message : String(err)}`);
  }
  const input: CleanupInput = {
    siteId: siteId.trim(),
    email: flags.email?.trim(),
    idleForMs,
    createdBefore: flags.createdBefore === undefined ? undefined : parseInstant(flags.createdBefore),
    max: flags.max === undefined ? undefined : wholeNumber('--max', flags.max),
    dryRun: flags.dryRun ?? false,
    pageSize: flags.pageSize === undefined ? undefined : wholeNumber('--page-size', flags.pageSize, MAX_PAGE_SIZE),
  };
  try {
    input.notify = resolveNotifySpec({ notify: flags.notify, notifyOn: flags.notifyOn });
  } catch (err) {
    if (err instanceof NotifySpecError) throw new CleanupOptionError(err.message);
    throw err;
  }
  const problems = validateCleanupInput(input);
  if (problems.length > 0) throw new CleanupOptionError(problems.join('; '));
  return stripUndefined(input);
}

/** Undefined fields removed, so the input shows cleanly in Temporal's UI and schedule descriptions. */
function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
