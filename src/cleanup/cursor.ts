/**
 * The cleanup's bookkeeping as pure functions over a {@link CleanupCursor}, so the workflow stays a thin loop of
 * activity calls and the paging rules are unit-tested. Workflow-safe: no Node imports, no clocks.
 */
import { selectionRule, type ResolvedCleanupSettings } from './rule';
import { StopReason, type CleanupCursor, type CleanupInput, type CleanupPage, type CleanupPageInput, type CloseFailure } from './types';

/** Close failures kept with their session id, and ids remembered so that a later pass does not retry them. */
export const KEEP_FAILURES = 100;
export const KEEP_FAILED_IDS = 1000;
/** Distinct failure reasons counted by name; the rest are counted as `other`. */
export const KEEP_REASONS = 20;

export function newCursor(input: CleanupInput, nowMs: number): CleanupCursor {
  return {
    startedAt: new Date(nowMs).toISOString(),
    rule: selectionRule(input, nowMs),
    pass: 1, offset: 0, passTotal: -1, passRows: 0, passMatched: 0, unstable: false, pages: 0,
    counts: { listed: 0, relisted: 0, matched: 0, closed: 0, alreadyClosed: 0, failed: 0, unreadable: 0, notMatched: 0, overMax: 0 },
    samples: [], failures: [], failureReasons: {}, failedIds: [], lastPageIds: [], notes: [],
  };
}

/** The next list call. */
export function nextPageInput(input: CleanupInput, c: CleanupCursor, s: ResolvedCleanupSettings): CleanupPageInput {
  return {
    siteId: input.siteId, email: c.rule.email, offset: c.offset, limit: s.pageSize, rule: c.rule,
    wantIds: !s.dryRun, samples: Math.max(0, s.sampleSize - c.samples.length), ignoreIds: c.lastPageIds,
  };
}

/** Records a listed page and returns the ids to close now: matches not failed before, within `max`. */
export function takePage(c: CleanupCursor, page: CleanupPage, s: ResolvedCleanupSettings): string[] {
  c.pages += 1;
  if (c.passTotal < 0) c.passTotal = page.total;
  else if (page.total !== c.passTotal) c.unstable = true;
  if (page.rows === 0 && c.offset < c.passTotal) c.unstable = true;
  c.offset += page.rows;
  c.passRows += page.rows;
  if (c.pass === 1) {
    c.counts.listed += page.listed;
    c.counts.alreadyClosed += page.alreadyClosed;
    c.counts.unreadable += page.unreadable;
    // A cursor carried over from a cleanup started before these were counted has none yet.
    c.counts.notMatched = (c.counts.notMatched ?? 0) + page.notMatched;
  } else c.counts.relisted += page.listed;
  const remaining = s.max === undefined ? Number.POSITIVE_INFINITY : Math.max(0, s.max - c.counts.matched);
  const failed = new Set(c.failedIds);
  const ids = page.matchedIds.filter((id) => !failed.has(id));
  const candidates = s.dryRun ? page.matched : ids.length;
  const take = Math.min(candidates, remaining);
  c.counts.overMax = (c.counts.overMax ?? 0) + candidates - take;
  c.counts.matched += take;
  c.passMatched += take;
  const room = Math.max(0, Math.min(take, s.sampleSize - c.samples.length));
  c.samples.push(...page.samples.slice(0, room));
  const taken = s.dryRun ? [] : ids.slice(0, take);
  c.lastPageIds = taken;
  return taken;
}

/** The API's reasons that no other session can succeed with: bad key, plan, unknown site. */
export function isFatalCloseError(error: string): boolean {
  return /^(401|403)\b/.test(error) || /^404 site not found/i.test(error);
}

/** Adds a close batch's result; returns the first fatal reason, if any. */
export function recordClose(c: CleanupCursor, result: { closed: number; failed: CloseFailure[] }): string | undefined {
  c.counts.closed += result.closed;
  for (const f of result.failed) {
    c.counts.failed += 1;
    const known = f.error in c.failureReasons || Object.keys(c.failureReasons).length < KEEP_REASONS;
    const reason = known ? f.error : 'other';
    c.failureReasons[reason] = (c.failureReasons[reason] ?? 0) + 1;
    if (c.failures.length < KEEP_FAILURES) c.failures.push(f);
    if (c.failedIds.length < KEEP_FAILED_IDS) c.failedIds.push(f.sessionId);
  }
  return result.failed.find((f) => isFatalCloseError(f.error))?.error;
}

/** What follows a page: another page, another pass over the list, or the end (complete, or why it stopped). */
export type NextStep = 'page' | 'relist' | 'done' | typeof StopReason.max | typeof StopReason.passes;

export function nextStep(c: CleanupCursor, lastPage: CleanupPage, s: ResolvedCleanupSettings): NextStep {
  if (s.max !== undefined && c.counts.matched >= s.max) return StopReason.max;
  const exhausted = lastPage.rows === 0 || c.offset >= lastPage.total;
  if (!exhausted) return 'page';
  if (!c.unstable) return 'done';
  if (s.dryRun) {
    c.notes.push('the session list changed while it was paged: the dry-run counts are approximate');
    return 'done';
  }
  // A re-list pass that found nothing to close shows that the earlier passes missed nothing still open.
  if (c.pass > 1 && c.passMatched === 0) return 'done';
  if (c.pass >= s.maxPasses) {
    c.notes.push(`the session list kept changing over ${c.pass} passes: run the cleanup again to close what this one missed (it is idempotent)`);
    return StopReason.passes;
  }
  return 'relist';
}

/** Starts another pass from offset 0; counts of `listed` and `alreadyClosed` stay those of the first pass. */
export function startPass(c: CleanupCursor): void {
  c.pass += 1;
  c.offset = 0;
  c.passTotal = -1;
  c.passRows = 0;
  c.passMatched = 0;
  c.unstable = false;
  c.lastPageIds = [];
}
