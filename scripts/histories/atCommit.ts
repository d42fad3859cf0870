/**
 * `--at REV`: records with the workflow and activity code of an older commit, to prove that runs started before a
 * `patched()` change still replay. The commit is checked out in a temporary git worktree (sharing this checkout's
 * node_modules and .tools), built there, and this recorder — compiled here — drives that build's workers.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from './git';

/** This recorder's compiled files, copied into the old build (older commits do not have them). */
const RECORDER_FILES = ['record-histories.js', 'histories'];

/**
 * Runs the recorder in a checkout of `rev`, writing into `out`, with `forwarded` flags (`--only`, `--note`).
 * The recorder there imports only modules that have long existed (src/temporal, src/sim, src/datasets, workflows'
 * signal and type modules); a commit without them cannot be recorded this way. Returns the exit code.
 */
export function recordAtCommit(root: string, rev: string, out: string, forwarded: string[], log: (line: string) => void): number {
  const sha = git(root, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`);
  const parent = mkdtempSync(join(tmpdir(), 'sitechat-record-at-'));
  const tree = join(parent, 'checkout');
  log(`checking out ${sha.slice(0, 7)} in ${tree}`);
  git(root, 'worktree', 'add', '--detach', tree, sha);
  try {
    for (const shared of ['node_modules', '.tools']) {
      if (existsSync(join(root, shared))) symlinkSync(realpathSync(join(root, shared)), join(tree, shared));
    }
    log('building it (tsc and the workflow bundle)');
    const build = spawnSync('npm', ['run', 'build'], { cwd: tree, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`npm run build failed at ${sha.slice(0, 7)} (exit ${build.status ?? build.signal})`);
    for (const file of RECORDER_FILES) {
      cpSync(join(root, 'dist', 'scripts', file), join(tree, 'dist', 'scripts', file), { recursive: true });
    }
    const recorder = spawnSync(process.execPath, [join(tree, 'dist', 'scripts', 'record-histories.js'), '--out', out, ...forwarded], { cwd: tree, stdio: 'inherit' });
    return recorder.status ?? 1;
  } finally {
    git(root, 'worktree', 'remove', '--force', tree);
    rmSync(parent, { recursive: true, force: true });
  }
}
