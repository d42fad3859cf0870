/** What a recording is labelled with (its commit and version), and the few git commands `--at` needs. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface RecordedCommit {
  /** Full hash, `-dirty` appended when the code the workers run had uncommitted changes. */
  commit: string;
  /** The fixtures folder of this recording: the short hash (and `-dirty`). */
  dir: string;
  /** `package.json`'s version at `root`. */
  version: string;
}

/**
 * The commit of the checkout at `root`. Workflow code bundles modules from src/ too (graders, reports, cleanup), so
 * an uncommitted change in workflows/, activities/ or src/ makes the label `-dirty`: the fixture then comes from
 * code no commit holds.
 */
export function recordedCommit(root: string): RecordedCommit {
  const sha = git(root, 'rev-parse', 'HEAD');
  const dirty = git(root, 'status', '--porcelain', '--untracked-files=no', '--', 'workflows', 'activities', 'src') !== '';
  const suffix = dirty ? '-dirty' : '';
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { commit: `${sha}${suffix}`, dir: `${sha.slice(0, 7)}${suffix}`, version };
}
