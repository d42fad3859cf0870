import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, sitechat } from '../helpers/cli';

/**
 * A SITECHAT_BASE_URL that names no API is found by the built CLI before anything starts, with one message and exit 2
 * in every command that asks the API: no Temporal server (the embedded one would write .sitechat/), no worker.
 */
describe('the base URL is checked first, the same way in every command (built CLI)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-baseurl-'));
    writeFileSync(join(dir, 'q.csv'), 'question,expected\nHow much does the Personal plan cost?,$9.99\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('run, backfill, check, cleanup, worker, watch --worker, review --worker and a nightly schedule exit 2 naming the fix, and start nothing', async () => {
    const env = { SITECHAT_BASE_URL: 'http://127.0.0.1:9/proxy', SITECHAT_API_KEY: 'sk-test', SITECHAT_SITE_ID: 'my-site', SITECHAT_TENANT_ID: 'my-tenant' };
    const commands = [
      ['run', 'q.csv'], ['backfill', 'q.csv'], ['check'], ['cleanup'], ['worker'], ['watch', '20261122-0412-5f3a9c', '--worker'], ['review', 'latest', '--worker'],
      ['schedule', 'create', 'nightly', '--cron', '0 2 * * *', '--dataset', 'q.csv'],
    ];
    for (const args of commands) {
      const ran = await sitechat(dir, args, env);
      expect(ran.code, `${args.join(' ')}: ${ran.stderr}`).toBe(2);
      // One line, the same in every command; its wording is pinned in test/unit/api/basePath.test.ts.
      const lines = ran.stderr.trim().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0], args.join(' ')).toMatch(/^sitechat: SITECHAT_BASE_URL must end with \/api\/v1, /u);
      expect(lines[0], args.join(' ')).toContain('e.g. http://127.0.0.1:9/proxy/api/v1');
    }
    expect(readdirSync(dir).sort()).toEqual(['q.csv']);
  });
});
