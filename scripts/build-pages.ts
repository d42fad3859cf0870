/**
 * Compiles the pages' scripts (`src/<room>/page/*.ts`, browser code) to JavaScript and copies their styles, beside the
 * compiled modules that read them (dist/src/<room>/page/), so a built runner reads them as they are
 * (src/shared/pageAsset.ts) and needs no compiler. Run by `npm run build` after tsc.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compilePageScript } from '../src/shared/pageAsset';
import { projectRoot } from '../src/shared/projectRoot';

/** The folders of page assets; each also has a tsconfig.json (the DOM library) that `npm run typecheck` checks. */
const PAGE_DIRS = ['src/render/page', 'src/review/page'] as const;

const root = projectRoot();
for (const dir of PAGE_DIRS) {
  const from = join(root, dir);
  const to = join(root, 'dist', dir);
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name.endsWith('.css')) copyFileSync(join(from, name), join(to, name));
    else if (name.endsWith('.ts')) {
      const source = join(from, name);
      writeFileSync(join(to, name.replace(/\.ts$/u, '.js')), compilePageScript(readFileSync(source, 'utf8'), source));
    }
  }
}
