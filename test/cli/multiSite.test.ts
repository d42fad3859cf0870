import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MultiSiteSummary } from '../../src/domain/multiSite';
import { CLI, sitechat } from '../helpers/cli';

describe('sitechat run --site a,b (the CLI, embedded Temporal dev server and simulator)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-multisite-'));
    writeFileSync(join(dir, 'q.csv'), 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\nq2,How much storage do I get for free?,5 GB\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a bad site list exits 2 naming the flag, before anything starts', async () => {
    const ran = await sitechat(dir, ['run', 'q.csv', '--site', 'demo-site,,demo-site']);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('--site: "demo-site,,demo-site": ');
    expect(ran.stderr).toContain('site 2 of 3 is empty');
    expect(ran.stderr).toContain('site "demo-site" is given twice');
    expect(existsSync(join(dir, '.sitechat')), 'no embedded Temporal server was started').toBe(false);
    const env = await sitechat(dir, ['backfill', 'q.csv'], { SITECHAT_SITE_ID: 'demo-site,demo-empty-site' });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/SITECHAT_SITE_ID: a backfill asks one site/);
  });

  it('two sites in one run: a line per site, per-site and combined reports, exit 1 when one site fails its gate', async () => {
    const out = join(dir, 'report');
    const ran = await sitechat(dir, ['run', 'q.csv', '--site', 'demo-site,demo-empty-site', '--fail-under', '90%', '--out', out]);
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(/on 2 sites at once: demo-site, demo-empty-site/);
    expect(ran.stdout).toMatch(/sites +demo-site +2 rows, pass rate 100\.0%, errors 0, PASSED/);
    expect(ran.stdout).toMatch(/demo-empty-site +2 rows, pass rate 0\.0%, errors 0, FAILED/);
    expect(ran.stdout).toMatch(/verdict +FAILED\n +- site demo-empty-site: pass rate 0\.0%/);
    for (const f of ['summary.json', 'report.md', 'report.html', 'junit.xml']) expect(existsSync(join(out, f)), f).toBe(true);
    for (const site of ['demo-site', 'demo-empty-site']) expect(existsSync(join(out, site, 'results.jsonl')), site).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as MultiSiteSummary;
    expect(summary.sites.map((s) => [s.siteId, s.reportDir])).toEqual([['demo-site', join(out, 'demo-site')], ['demo-empty-site', join(out, 'demo-empty-site')]]);
  }, 180_000);
});
