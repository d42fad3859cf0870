/**
 * Tests that need something this machine may lack (PostgreSQL, a build, openssl) skip without it on a developer's
 * machine, with the reason printed. In CI (`CI=true`) nothing may be skipped: `.ci/run` installs everything, so a
 * missing requirement there fails the test with its reason instead of hiding it.
 */
const inCI = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

/** True when a test with this unmet requirement is to be skipped (never in CI); `reason` undefined means it is met. */
export function skippable(reason: string | undefined): boolean {
  if (reason === undefined) return false;
  if (inCI()) return false;
  process.stderr.write(`\n[tests] SKIPPING a test: ${reason}\n`);
  return true;
}

/** Fails the test with the reason when the requirement is unmet (reached only in CI, where it is not skipped). */
export function assertMet(reason: string | undefined): void {
  if (reason !== undefined) throw new Error(`required in CI and missing: ${reason}`);
}
