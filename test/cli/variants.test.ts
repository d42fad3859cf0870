import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Comparison } from '../../src/analysis/compare/types';
import type { MultiSiteSummary } from '../../src/domain/multiSite';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium';
import { CLI, sitechat } from '../helpers/cli';

const DEMO = resolve(__dirname, '..', '..', 'datasets', 'demo.csv');

describe('sitechat run --model a,b and `variants:`, and `sitechat compare` of their runs (the CLI, embedded Temporal dev server and simulator)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-variants-'));
    // A relative dataset path, as a user would type it: the report's title shows it.
    copyFileSync(DEMO, join(dir, 'demo.csv'));
    writeFileSync(join(dir, 'q.csv'), 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\nq2,How much storage do I get for free?,5 GB\n');
    writeFileSync(join(dir, 'bad.yaml'), ['failUnder: 0.5', 'variants:', '  - name: a', '    model: gpt-4o-mini', '  - name: b', '    temperature: 0.2', ''].join('\n'));
    writeFileSync(join(dir, 'twins.yaml'), ['variants:', '  - { name: first, model: gpt-4o-mini }', '  - { name: second, model: gpt-4o-mini }', ''].join('\n'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a config `variants:` with an unknown key, a --reference that is no variant and a backfill of two models exit 2 before anything starts', async () => {
    const bad = await sitechat(dir, ['run', 'q.csv', '--config', 'bad.yaml']);
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toContain('--config bad.yaml:6: `variants[1]` unknown key `temperature`');
    const reference = await sitechat(dir, ['run', 'q.csv', '--model', 'gpt-4o-mini,gpt-3.5-mini-sim', '--reference', 'gpt-4o']);
    expect(reference.code, reference.stderr).toBe(2);
    expect(reference.stderr).toContain('--reference: "gpt-4o" is not a variant of this run; the variants are gpt-4o-mini, gpt-3.5-mini-sim');
    const backfill = await sitechat(dir, ['backfill', 'q.csv', '--model', 'gpt-4o-mini,gpt-3.5-mini-sim']);
    expect(backfill.code, backfill.stderr).toBe(2);
    expect(backfill.stderr).toContain('--model: a backfill asks one variant');
    expect(existsSync(join(dir, '.sitechat')), 'no embedded Temporal server was started').toBe(false);
  });

  it('--model a,b: the plan, a run per model, the comparison through src/analysis/compare, each verdict, and exit 1 when the --reference is beaten significantly', async () => {
    const out = join(dir, 'models');
    const ran = await sitechat(dir, ['run', 'demo.csv', '--model', 'gpt-4o-mini,gpt-3.5-mini-sim', '--reference', 'gpt-3.5-mini-sim', '--fail-under', '30%', '--out', out]);
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(/plan: 2 variants × 66 questions = 132 questions/);
    // The lines' wording is pinned by the unit tests of what prints them (test/unit/cli/variants, multiSite, matrixComparison).
    expect(ran.stderr).toMatch(/2 variants share its 5 requests\/s .* 132 questions ≈ 26 s/);
    expect(ran.stderr).toMatch(/expected time ≈ 26 s \+ the answer time/);
    // Each variant passes its own gate: the run fails on the reference alone.
    for (const v of ['gpt-4o-mini', 'gpt-3\\.5-mini-sim']) expect(ran.stdout).toMatch(new RegExp(`${v} +66 rows, .*errors 0, PASSED`));
    expect(ran.stdout).toMatch(/compared +gpt-4o-mini is better/);
    expect(ran.stdout).toMatch(/verdict +FAILED\n.*gpt-3\.5-mini-sim is beaten significantly by gpt-4o-mini/);
    for (const f of ['summary.json', 'report.md', 'report.html', 'junit.xml', 'compare.md', 'compare.html', 'compare.json', 'compare.junit.xml']) expect(existsSync(join(out, f)), f).toBe(true);
    for (const v of ['gpt-4o-mini', 'gpt-3.5-mini-sim']) expect(existsSync(join(out, v, 'results.jsonl')), v).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as MultiSiteSummary;
    expect(summary.sites.map((s) => [s.variant?.name, s.variant?.model, s.runId.endsWith(`-${s.variant?.name ?? ''}`), s.verdict])).toEqual([
      ['gpt-4o-mini', 'gpt-4o-mini', true, 'passed'], ['gpt-3.5-mini-sim', 'gpt-3.5-mini-sim', true, 'passed'],
    ]);
    expect(summary.comparison?.best).toBe('gpt-4o-mini');
    const pair = summary.comparison?.pairs[0];
    expect(pair?.significant).toBe(true);
    expect(pair?.adjustedP).toBeLessThan(0.001);
    const compared = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as { variants: { label: string }[]; rows: unknown[] };
    expect(compared.variants.map((v) => v.label)).toEqual(['gpt-4o-mini', 'gpt-3.5-mini-sim']);
    expect(compared.rows).toHaveLength(66);
    // The side-by-side page is compare's own renderer (tested in the browser by test/integration/compareHtml.test.ts).
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('id="only-disagree"');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('# Matrix evaluation report');
    expect(md).toContain('**gpt-4o-mini is better than the other variant');
    expect(md).toMatch(/\| gpt-4o-mini \| gpt-3\.5-mini-sim \| \d+ \| \d+ \| \d+ \|/);
  }, 240_000);

  it.skipIf(skipWithoutChromium())('in Chromium: the matrix report.html shows the verdict, the variants, the comparison, and links to each variant\'s report and to compare.html', async () => {
    const out = join(dir, 'models');
    if (!existsSync(join(out, 'report.html'))) throw new Error('the --model a,b run above did not write report.html');
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${join(out, 'report.html')}`);
      expect(await page.textContent('h1')).toMatch(/matrix/i);
      expect(await page.textContent('section.verdict .label')).toMatch(/^Overall: FAILED/);
      expect(await page.textContent('section.verdict .reasons')).toContain('the reference variant gpt-3.5-mini-sim is beaten significantly by gpt-4o-mini');
      // One line per variant, its name linking to that variant's own report.
      const variantLinks = await page.$$eval('table.tags tbody tr td:first-child a', (as) => as.map((x) => [x.textContent, x.getAttribute('href')]));
      expect(variantLinks).toEqual([['gpt-4o-mini', 'gpt-4o-mini/report.html'], ['gpt-3.5-mini-sim', 'gpt-3.5-mini-sim/report.html']]);
      expect(await page.textContent('#conclusion')).toMatch(/gpt-4o-mini is better than the other variant/);
      expect(await page.$$eval('#comparison-variants tbody tr td:first-child', (tds) => tds.map((td) => td.textContent))).toEqual(['gpt-4o-mini', 'gpt-3.5-mini-sim']);
      expect(await page.textContent('#pairs-note')).toMatch(/McNemar .* Holm-adjusted across the 1 pair/);
      const pair = await page.$$eval('#comparison-pairs tbody tr td', (tds) => tds.map((td) => td.textContent));
      expect([pair[0], pair[1], pair[7]]).toEqual(['gpt-4o-mini', 'gpt-3.5-mini-sim', 'yes']);
      // docs/img/matrix-report.png is this screenshot, rewritten only when asked (its run ids change on every run).
      const shot = process.env.SITECHAT_WRITE_SCREENSHOTS === '1' ? resolve(__dirname, '..', '..', 'docs', 'img', 'matrix-report.png') : join(out, 'matrix-report.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(existsSync(shot)).toBe(true);
      // The links lead somewhere: a variant's report, then the rows side by side.
      await page.click('table.tags tbody tr:first-child td:first-child a');
      expect(page.url()).toMatch(/\/models\/gpt-4o-mini\/report\.html$/);
      expect(await page.textContent('h1')).toBeTruthy();
      await page.goBack();
      await page.click('a[href="compare.html"]');
      expect(page.url()).toMatch(/\/models\/compare\.html$/);
      expect(await page.$$('#sbs tbody tr')).toHaveLength(66);
      expect(errors).toEqual([]);
    } finally {
      await browser?.close();
    }
  }, 60_000);

  it('two identical variants from the config: no significant difference, and the reference holds (exit 0)', async () => {
    const out = join(dir, 'twins');
    const ran = await sitechat(dir, ['run', 'q.csv', '--config', 'twins.yaml', '--reference', 'first', '--fail-under', '50%', '--out', out]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/in 2 variants at once: first, second/);
    expect(ran.stdout).toMatch(/compared +No significant difference/);
    expect(ran.stdout).toMatch(/verdict +PASSED/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as MultiSiteSummary;
    expect(summary.comparison?.pairs.map((p) => [p.first, p.second, p.significant])).toEqual([['first', 'second', false]]);
    // The next night with --baseline naming this run's combined report: each variant is compared with the variant of
    // the same name (both are on one site with one model, so only the name tells them apart).
    const next = await sitechat(dir, ['run', 'q.csv', '--config', 'twins.yaml', '--baseline', out, '--out', join(dir, 'twins-next')]);
    expect(next.code, next.stderr).toBe(0);
    const runIds = new Map(summary.sites.map((l) => [l.variant?.name, l.runId]));
    for (const name of ['first', 'second']) {
      const variantSummary = JSON.parse(readFileSync(join(dir, 'twins-next', name, 'summary.json'), 'utf8')) as { baseline?: { runId: string } };
      expect(variantSummary.baseline?.runId, name).toBe(runIds.get(name));
    }
  }, 240_000);

  // `sitechat compare` on the runs above (they are ordinary runs in the results store): its statistics are unit-tested
  // (test/unit/compare), so here only what needs real runs: run ids and paths resolved, files written, exit codes.
  it('sitechat compare of those runs: the weak model beaten with p < 0.001 (exit 1 as --reference), the twins no different (exit 0); a missing run or a bad --alpha exit 2', async () => {
    const runsOf = (name: string): string[] => (JSON.parse(readFileSync(join(dir, name, 'summary.json'), 'utf8')) as MultiSiteSummary).sites.map((s) => s.runId);
    const [good = '', weak = ''] = runsOf('models');
    const out = join(dir, 'cmp');
    const beaten = await sitechat(dir, ['compare', good, `runs/${weak}`, '--reference', weak, '--out', out]);
    expect(beaten.code, beaten.stderr).toBe(1);
    const c = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison;
    expect(c.variants.map((v) => v.runId)).toEqual([good, weak]);
    expect(c.pairs[0]).toMatchObject({ a: 0, b: 1, significant: true });
    expect(c.pairs[0]?.adjustedP).toBeLessThan(0.001);
    expect(c.pairs[0]?.wins).toBeGreaterThan(c.pairs[0]?.losses ?? Infinity);
    expect(beaten.stderr).toMatch(/gpt-3\.5-mini-sim\b.* is beaten significantly by gpt-4o-mini/);
    for (const f of ['compare.md', 'compare.html', 'compare.junit.xml']) expect(existsSync(join(out, f)), f).toBe(true);

    const [first = '', second = ''] = runsOf('twins');
    const same = await sitechat(dir, ['compare', first, second, '--reference', first, '--out', join(dir, 'cmp-twins')]);
    expect(same.code, same.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'cmp-twins', 'compare.json'), 'utf8')) as Comparison).pairs.map((p) => p.significant)).toEqual([false]);

    const missing = await sitechat(dir, ['compare', good, '20990101-0000-abcdef']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no run 20990101-0000-abcdef in the results store');
    const alpha = await sitechat(dir, ['compare', good, weak, '--alpha', '5']);
    expect(alpha.code).toBe(2);
    expect(alpha.stderr).toContain('--alpha');
  });
});
