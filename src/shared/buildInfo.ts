/**
 * Which build of the runner is running: the package version, and the git commit `npm run build` recorded in
 * dist/build-info.json (scripts/write-build-info.ts). Read from files, never by running git: workers run where
 * there may be no git and no repository (the Docker image). Absent or unreadable → "unknown".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './projectRoot';

/** Written by the build next to the compiled code. */
export const BUILD_INFO_FILE = 'build-info.json';

export interface BuildInfo {
  version: string;
  /** Full commit hash, with `-dirty` when the build had uncommitted changes; "unknown" when not recorded. */
  commit: string;
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

let cached: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  if (cached) return cached;
  let root: string | undefined;
  try {
    root = projectRoot();
  } catch {
    root = undefined;
  }
  const pkg = root ? readJson(join(root, 'package.json')) : undefined;
  const built = root ? readJson(join(root, 'dist', BUILD_INFO_FILE)) : undefined;
  const version = typeof pkg?.version === 'string' ? pkg.version : 'unknown';
  const commit = typeof built?.commit === 'string' && /^[0-9a-f]{7,64}(-dirty)?$/u.test(built.commit) ? built.commit : 'unknown';
  cached = { version, commit };
  return cached;
}
