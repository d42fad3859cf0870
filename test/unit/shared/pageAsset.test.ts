import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pageScript, pageStyle } from '../../../src/shared/pageAsset';
import { REPORT_SCRIPT } from '../../../src/render/htmlAssets';
import { REVIEW_JS } from '../../../src/review/pageAssets';

describe('page assets', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-page-'));
    mkdirSync(join(dir, 'page'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('run from source, compiles a page script: types gone, code and comments kept, no module wrapper', () => {
    writeFileSync(join(dir, 'page', 'x.ts'), '// why\n(function () {\n  const n: number = 1;\n  document.title = String(n as number);\n})();\n');
    const js = pageScript(dir, 'x');
    expect(js).toBe('// why\n(function () {\n    const n = 1;\n    document.title = String(n);\n})();\n');
    expect(() => new Function(js)).not.toThrow();
  });

  it('built, reads the compiled .js beside the module instead', () => {
    writeFileSync(join(dir, 'page', 'x.ts'), 'const a: number = 1;\n');
    writeFileSync(join(dir, 'page', 'x.js'), 'var built = true;\n');
    expect(pageScript(dir, 'x')).toBe('var built = true;\n');
  });

  it('refuses a script that would end its inline <script> element early, and one that does not parse', () => {
    writeFileSync(join(dir, 'page', 'x.ts'), 'document.title = "</script><script>alert(1)";\n');
    expect(() => pageScript(dir, 'x')).toThrow(/x\.ts: holds "<\/script"/u);
    writeFileSync(join(dir, 'page', 'y.ts'), 'const = ;\n');
    expect(() => pageScript(dir, 'y')).toThrow(/y\.ts: .*expected/u);
  });

  it('reads a style as it is', () => {
    writeFileSync(join(dir, 'page', 'x.css'), '\na > b { color: red }\n');
    expect(pageStyle(dir, 'x')).toBe('\na > b { color: red }\n');
  });

  it('the report and review scripts are JavaScript a browser parses', () => {
    for (const script of [REPORT_SCRIPT, REVIEW_JS]) {
      expect(() => new Function(script)).not.toThrow();
    }
  });
});
