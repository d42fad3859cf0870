import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli';
import { failOnWarnings } from '../helpers/warnings';

const ROOT = join(__dirname, '..', '..');
const BUILD_INFO = join(ROOT, 'dist', 'build-info.json');

/**
 * `npx sitechat` runs the project's own bin by installing the project into npx's cache (a link), which runs its
 * `prepare` script. On a project `npm install` already built, that script must not build it again: it made the first
 * `npx sitechat` of a clone take 10–20 s (BENCHMARKS.md, "CLI start-up"), and rewrote dist/ under whatever ran from it.
 */
describe('the first npx sitechat from an empty npx cache (real npx)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI) || !existsSync(BUILD_INFO)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-npx-first-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs this build without building it again: dist/ is left as it was', async () => {
    const before = statSync(BUILD_INFO).mtimeMs;
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_') && !k.startsWith('npm_')));
    const env = { ...clean, npm_config_cache: join(dir, 'npm-cache'), npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    const child = spawn('npx', ['sitechat', '--version'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    failOnWarnings('npx sitechat --version', child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(stdout.trim()).toBe(version);
    expect(stderr).not.toContain('prepare:build');
    expect(statSync(BUILD_INFO).mtimeMs, 'dist/build-info.json was not written again').toBe(before);
  });
});
