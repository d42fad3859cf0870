/**
 * Records the git commit being built in dist/build-info.json, so reports can say which build produced them
 * (src/shared/buildInfo.ts reads it; nothing runs git at run time). Without git or a repository (the Docker build context
 * has no .git) the commit is SITECHAT_BUILD_COMMIT when set, else "unknown".
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_INFO_FILE } from '../src/shared/buildInfo';
import { projectRoot } from '../src/shared/projectRoot';

function git(args: string[], cwd: string): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function commitOf(root: string): string {
  const given = process.env.SITECHAT_BUILD_COMMIT?.trim();
  if (given) return given;
  const head = git(['rev-parse', 'HEAD'], root);
  if (!head) return 'unknown';
  // Only tracked files count: a build of a checkout with uncommitted edits is not that commit.
  const dirty = git(['status', '--porcelain', '--untracked-files=no'], root);
  return dirty ? `${head}-dirty` : head;
}

const root = projectRoot();
writeFileSync(join(root, 'dist', BUILD_INFO_FILE), `${JSON.stringify({ commit: commitOf(root) })}\n`);
