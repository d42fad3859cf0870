import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder holding this package's package.json, found from the running file (works from src/ and dist/). */
export function projectRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'sitechat-runner') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the sitechat-runner package root above ${from}`);
    dir = parent;
  }
}
