import { UsageError } from './usageError';

/**
 * What `watch` and `cancel` accept: a run id (`20261122-0412-5f3a9c`, `nightly-demo-2026-11-23T170511Z`) or a
 * workflow id as `run` and `schedule trigger` print it. A scheduled run's workflow id carries the schedule's time
 * with colons (`sitechat-evaluation-nightly-demo-2026-11-23T17:05:11Z`), so `:` is allowed here; `/` and `..` are
 * not (ids become folder names).
 */
const RUN_REF = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/u;

/** The workflow kinds `sitechat-<kind>-<runId>` a run id can belong to. */
const KINDS = ['evaluation', 'backfill', 'cleanup'] as const;

/** Temporal appends a schedule's time as `2026-11-23T17:05:11Z`; the run id drops the colons (safe as a folder name). */
const SCHEDULED_TIME = /(\d{4}-\d{2}-\d{2}T)(\d{2})(\d{2})(\d{2})(Z)/u;

export function checkRunRef(ref: string, flag: string): void {
  if (!RUN_REF.test(ref) || ref.includes('..')) {
    throw new UsageError(`${flag} must be a run id (20261122-0412-5f3a9c) or a workflow id as \`sitechat run\` or \`sitechat schedule trigger\` print it ` +
      `(letters, digits, ".", "_", "-", ":"; no "/" or ".."), got ${JSON.stringify(ref)}`);
  }
}

/**
 * The workflow ids a reference may name, most likely first: itself when it is a workflow id, else
 * `sitechat-<kind>-<runId>` for each kind, and for a scheduled run's id also the form with the time's colons put back.
 */
export function workflowIdCandidates(ref: string): string[] {
  if (ref.startsWith('sitechat-')) return [ref];
  const withColons = ref.replace(SCHEDULED_TIME, '$1$2:$3:$4$5');
  const ids = [ref, ...(withColons === ref ? [] : [withColons])];
  return KINDS.flatMap((kind) => ids.map((id) => `sitechat-${kind}-${id}`));
}
