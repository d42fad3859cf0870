import type { CleanupInput, SelectionRule } from './types';

/** Largest page the API serves (spec §4.1). */
export const MAX_PAGE_SIZE = 500;

/** Defaults of the optional {@link CleanupInput} fields. */
export const CleanupDefaults = {
  pageSize: MAX_PAGE_SIZE,
  closeBatchSize: 100,
  maxPasses: 3,
  sampleSize: 50,
} as const;

export type ResolvedCleanupSettings = Required<Pick<CleanupInput, 'pageSize' | 'closeBatchSize' | 'maxPasses' | 'sampleSize' | 'dryRun'>> & {
  max?: number;
};

export function cleanupSettings(input: CleanupInput): ResolvedCleanupSettings {
  return {
    pageSize: input.pageSize ?? CleanupDefaults.pageSize,
    closeBatchSize: input.closeBatchSize ?? CleanupDefaults.closeBatchSize,
    maxPasses: input.maxPasses ?? CleanupDefaults.maxPasses,
    sampleSize: input.sampleSize ?? CleanupDefaults.sampleSize,
    dryRun: input.dryRun ?? false,
    max: input.max,
  };
}

function wholeInRange(value: number | undefined, min: number, max: number): boolean {
  return value === undefined || (Number.isInteger(value) && value >= min && value <= max);
}

/**
 * Field-qualified problems of a cleanup input, empty when it is valid. A rule is required: an input with no email,
 * no idle time and no creation cutoff would close every active session of the site.
 */
export function validateCleanupInput(input: CleanupInput): string[] {
  const problems: string[] = [];
  if (typeof input.siteId !== 'string' || input.siteId.trim() === '') problems.push('`siteId` must be a non-empty string');
  if (input.email !== undefined && (typeof input.email !== 'string' || input.email.trim() === '')) problems.push('`email` must be a non-empty string');
  if (input.idleForMs !== undefined && !(Number.isFinite(input.idleForMs) && input.idleForMs >= 0)) problems.push('`idleForMs` must be a number >= 0');
  if (input.createdBefore !== undefined && Number.isNaN(Date.parse(input.createdBefore))) {
    problems.push(`\`createdBefore\` must be an ISO 8601 instant, got ${JSON.stringify(input.createdBefore)}`);
  }
  if (input.email === undefined && input.idleForMs === undefined && input.createdBefore === undefined) {
    problems.push('give at least one rule (`email`, `idleForMs` or `createdBefore`): without one every active session would be closed');
  }
  if (!wholeInRange(input.max, 1, Number.MAX_SAFE_INTEGER)) problems.push('`max` must be a whole number >= 1');
  if (!wholeInRange(input.pageSize, 1, MAX_PAGE_SIZE)) problems.push(`\`pageSize\` must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  if (!wholeInRange(input.closeBatchSize, 1, 1000)) problems.push('`closeBatchSize` must be a whole number from 1 to 1000');
  if (!wholeInRange(input.maxPasses, 1, 10)) problems.push('`maxPasses` must be a whole number from 1 to 10');
  if (!wholeInRange(input.sampleSize, 0, 1000)) problems.push('`sampleSize` must be a whole number from 0 to 1000');
  return problems;
}

/** The rule with absolute cutoffs: idle time becomes an `updated_at` cutoff relative to `nowMs`. */
export function selectionRule(input: CleanupInput, nowMs: number): SelectionRule {
  const rule: SelectionRule = {};
  if (input.email !== undefined) rule.email = input.email.trim();
  if (input.idleForMs !== undefined) rule.updatedAtOrBefore = nowMs - input.idleForMs;
  if (input.createdBefore !== undefined) rule.createdBefore = Date.parse(input.createdBefore);
  return rule;
}
