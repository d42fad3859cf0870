/**
 * Where the CLI's own worker loads custom graders from, and the module paths a run carries: relative to that
 * directory, so a worker elsewhere resolves them against its own SITECHAT_GRADERS_DIR and nothing else.
 */
import { realpathSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { AssertionSpec } from '../../../domain/grade';

/** SITECHAT_GRADERS_DIR, or else the run config's directory; undefined with neither (then no custom graders). */
export function gradersDirFor(configPath: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.SITECHAT_GRADERS_DIR?.trim();
  if (fromEnv) return resolve(fromEnv);
  return configPath === undefined ? undefined : dirname(resolve(configPath));
}

/**
 * The assertions with each custom module's path made relative to `gradersDir` (real paths, symlinks followed).
 * Call after the config was checked against the directory: every module exists inside it.
 */
export function relativeGraders(assertions: readonly AssertionSpec[], gradersDir: string | undefined): AssertionSpec[] {
  if (gradersDir === undefined) return [...assertions];
  const dir = realpathSync(gradersDir);
  return assertions.map((spec) => (spec.type === 'custom' ? { ...spec, module: relative(dir, realpathSync(spec.module)) } : spec));
}
