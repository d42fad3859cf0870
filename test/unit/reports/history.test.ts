import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectHistory, relativeHref, verdictOf } from '../../../src/render/history';
import { writeHistory } from '../../../src/render/historyPage';
import { trendSvg } from '../../../src/render/trendSvg';
import type { Provenance } from '../../../src/domain/provenance';
import type { RunSummary } from '../../../src/domain/results';
import { seedRuns } from '../../helpers/seedRuns';
import { useTempStore } from './fixtures';

const ctx = useTempStore();

/** A run's row in a history table. */
function rowIn(html: string, runId: string): string {
  return html.split('<tr>').find((r) => r.includes(`>${runId}</a></td>`)) ?? '';
}

const p = 'passed' as const;
const f = 'failed' as const;
const e = 'error' as const;

async function seed(dir: string) {
  return seedRuns(dir, [
    { runId: 'r1', startedAt: '2026-01-01T02:00:00Z', outcomes: [p, p, f, e], failUnder: 0.5, maxErrorRate: 0.25 },
    { runId: 'r2', startedAt: '2026-01-02T02:00:00Z', outcomes: [p, f, f, f], failUnder: 0.5 },
    { runId: 'r3', startedAt: '2026-01-03T02:00:00Z', outcomes: [p, p, p, p], siteId: 'site-b', model: 'gpt-x' },
    { runId: 'r4', startedAt: '2026-01-04T02:00:00Z', outcomes: [p, e], dataset: '/data/<img src=x onerror=alert(1)>.csv' },
  ]);
}

describe('collectHistory', () => {
  it('lists finished runs newest first with rates, errors and verdict; filters by dataset and site', async () => {
    const store = await seed(ctx.dir);
    await store.init('running', { runId: 'running', workflowId: 'w', kind: 'evaluation', dataset: '/data/questions.csv', datasetSha256: 'x', siteId: 'site-a', startedAt: '2026-01-05T00:00:00Z', options: {} });
    const all = await collectHistory(store, ctx.dir);
    expect(all.map((r) => r.runId)).toEqual(['r4', 'r3', 'r2', 'r1']);
    const r1 = all[3];
    expect(r1).toMatchObject({ rows: 4, passRate: 2 / 3, errors: 1, errorRate: 0.25, verdict: 'passed', siteId: 'site-a', reportHtml: join(ctx.dir, 'r1', 'report.html') });
    expect(all[2]).toMatchObject({ passRate: 0.25, verdict: 'failed' });
    expect(all[1]).toMatchObject({ model: 'gpt-x', siteId: 'site-b' });
    expect((await collectHistory(store, ctx.dir, { siteId: 'site-b' })).map((r) => r.runId)).toEqual(['r3']);
    expect((await collectHistory(store, ctx.dir, { dataset: 'questions.csv' })).map((r) => r.runId)).toEqual(['r3', 'r2', 'r1']);
    expect((await collectHistory(store, ctx.dir, { dataset: '/data/questions.csv', siteId: 'site-a' })).map((r) => r.runId)).toEqual(['r2', 'r1']);
  });

  it('leaves out a run whose summary.json is corrupt (not JSON, or not a summary), naming the file; the page is written', async () => {
    const store = await seed(ctx.dir);
    await writeFile(join(ctx.dir, 'r2', 'summary.json'), '{"runId": "r2", "total": 4, "pass');
    await writeFile(join(ctx.dir, 'r3', 'summary.json'), JSON.stringify({ runId: 'r3', total: '4', error: 0, timedOut: 0, passRate: 1 }));
    const warnings: string[] = [];
    const entries = await collectHistory(store, ctx.dir, { onSkip: (w) => warnings.push(w) });
    expect(entries.map((r) => r.runId)).toEqual(['r4', 'r1']);
    expect(warnings.sort()).toEqual([
      expect.stringMatching(new RegExp(`^${join(ctx.dir, 'r2', 'summary.json')} is not valid JSON \\(.+\\): run r2 is left out$`, 'u')),
      `${join(ctx.dir, 'r3', 'summary.json')} is not a run summary: \`total\` is not a number: run r3 is left out`,
    ]);
    const html = await readFile(await writeHistory(store, ctx.dir), 'utf8');
    expect(html).toContain('<a href="r1/report.html">');
    expect(html).not.toContain('<a href="r2/report.html">');
  });
});

describe('verdictOf', () => {
  const base = { gate: { passed: true, reasons: [], warnings: [] } } as unknown as RunSummary;
  it('uses gate.verdict when present, else cancelled, else gate.passed', () => {
    expect(verdictOf({ ...base, gate: { ...base.gate, verdict: 'no_threshold' } } as unknown as RunSummary)).toBe('no_threshold');
    expect(verdictOf({ ...base, cancelled: true } as unknown as RunSummary)).toBe('cancelled');
    expect(verdictOf({ ...base, gate: { passed: false, reasons: ['x'], warnings: [] } } as unknown as RunSummary)).toBe('failed');
    expect(verdictOf(base)).toBe('passed');
    expect(verdictOf({ ...base, gate: { ...base.gate, verdict: 'bogus' } } as unknown as RunSummary)).toBe('passed');
  });
});

describe('history.html', () => {
  it('one chart and table per dataset, site and model, points linking to each report, all data escaped, nothing external', async () => {
    const store = await seed(ctx.dir);
    const file = await writeHistory(store, ctx.dir);
    expect(file).toBe(join(ctx.dir, 'history.html'));
    const html = await readFile(file, 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('<h2>questions.csv on site site-a, the site&#39;s default model</h2>');
    expect(html).toContain('<h2>questions.csv on site site-b, model gpt-x</h2>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;.csv on site site-a');
    expect(html).not.toContain('<img');
    for (const id of ['r1', 'r2', 'r3', 'r4']) expect(html).toContain(`<a href="${id}/report.html">`);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toContain('<script');
    expect(html).toContain('default-src &#39;none&#39;');
    // r1: pass rate 66.7%, error rate 25.0% as point tooltips
    expect(html).toMatch(/run r1 [^<]*\npass rate: 66\.7%/);
    expect(html).toMatch(/run r1 [^<]*\nerror rate: 25\.0%/);
  });

  it('splits a dataset and site by model, and keeps re-grades and backfills off the evaluation trend', async () => {
    await seedRuns(ctx.dir, [
      { runId: 'e1', startedAt: '2026-02-01T00:00:00Z', outcomes: [p, f] },
      { runId: 'e2', startedAt: '2026-02-02T00:00:00Z', outcomes: [p, p] },
      { runId: 'm1', startedAt: '2026-02-03T00:00:00Z', outcomes: [f, f], model: 'gpt-weak' },
      { runId: 'g1', startedAt: '2026-02-04T00:00:00Z', outcomes: [f, f], regrade: true },
      { runId: 'b1', startedAt: '2026-02-05T00:00:00Z', outcomes: ['answered', 'answered'], kind: 'backfill' },
    ]);
    const entries = await collectHistory(ctx.store, ctx.dir);
    expect(entries.map((x) => [x.runId, x.origin])).toEqual([['b1', 'backfill'], ['g1', 'regrade'], ['m1', 'evaluation'], ['e2', 'evaluation'], ['e1', 'evaluation']]);
    const html = await readFile(await writeHistory(ctx.store, ctx.dir), 'utf8');
    const sections = html.split('<section class="group">').slice(1);
    expect(sections.map((x) => /<h2>([^<]*)<\/h2>/.exec(x)?.[1])).toEqual(['questions.csv on site site-a, the site&#39;s default model', 'questions.csv on site site-a, model gpt-weak']);
    const [main, weak] = sections as [string, string];
    // The default model's trend: e1 and e2 only; g1 and b1 are listed apart, their points nowhere on it.
    const chart = main.slice(main.indexOf('<svg'), main.indexOf('</svg>'));
    expect(chart).toContain('run e1 ');
    expect(chart).toContain('run e2 ');
    expect(chart).not.toContain('run g1 ');
    expect(chart).not.toContain('run b1 ');
    expect(chart).not.toContain('run m1 ');
    expect(main).toContain('<h3>Evaluations (2)</h3>');
    const apart = main.slice(main.indexOf('<h3>Re-grades and backfills (2), not on the trend</h3>'));
    expect(apart).toContain('<a href="g1/report.html">g1</a></td><td>2026-02-04 00:00</td><td>re-grade</td>');
    expect(apart).toContain('<a href="b1/report.html">b1</a></td><td>2026-02-05 00:00</td><td>backfill</td>');
    expect(weak).toContain('run m1 ');
    expect(weak).not.toContain('Re-grades and backfills');
  });

  it('says each verdict in words with why, marks a failed run on the trend, and keeps simulator and real-API runs apart', async () => {
    const runner = { version: '0.1.0', commit: 'c' };
    const simulator: Provenance = { answers: { from: 'simulator', host: '127.0.0.1:1' }, grading: { assertions: [] }, runner };
    const api: Provenance = { answers: { from: 'api', host: 'chat.example.com' }, grading: { assertions: [] }, runner };
    await seedRuns(ctx.dir, [
      { runId: 's1', startedAt: '2026-04-01T00:00:00Z', outcomes: [p, p], provenance: simulator },
      // Every answer passed, but its feedback was lost: a failed run, which must not read as a pass.
      { runId: 'a1', startedAt: '2026-04-02T00:00:00Z', outcomes: [p, p], provenance: api, failUnder: 0.5, lostFeedback: 1 },
      { runId: 'a2', startedAt: '2026-04-03T00:00:00Z', outcomes: [p, p], provenance: api, failUnder: 0.5 },
    ]);
    const entries = await collectHistory(ctx.store, ctx.dir);
    expect(entries.map((x) => [x.runId, x.source, x.verdict])).toEqual([['a2', 'api chat.example.com', 'passed'], ['a1', 'api chat.example.com', 'failed'], ['s1', 'simulator', 'no_threshold']]);
    expect(entries[1]?.reasons).toEqual([expect.stringMatching(/^feedback was not recorded for 1 row/)]);
    const html = await readFile(await writeHistory(ctx.store, ctx.dir), 'utf8');
    const sections = html.split('<section class="group">').slice(1);
    expect(sections.map((x) => /<h2>([^<]*)<\/h2>/.exec(x)?.[1])).toEqual([
      'questions.csv on site site-a, the site&#39;s default model · Site Chat API at chat.example.com',
      'questions.csv on site site-a, the site&#39;s default model · built-in simulator',
    ]);
    const [real, sim] = sections as [string, string];
    expect(real).not.toContain('run s1 ');
    expect(sim).not.toContain('run a1 ');
    expect(rowIn(real, 'a1')).toMatch(/<td class="v-failed">FAILED<\/td><td class="reason">feedback was not recorded for 1 row/);
    expect(rowIn(real, 'a2')).toContain('<td class="v-passed">PASSED</td>');
    expect(rowIn(sim, 's1')).toContain('<td class="v-no_threshold">no quality threshold set</td>');
    expect(html).not.toContain('>no_threshold<');
    // a1's pass-rate point is ringed as failed; a2's is not.
    expect(real).toMatch(/class="dot pass failed"><title>run a1 /);
    expect(real).toMatch(/class="dot pass"><title>run a2 /);
  });

  it('links the reports of a run written elsewhere with --out, as this host noted them', async () => {
    const out = join(ctx.dir, '..', `${basename(ctx.dir)}-out`, 'my report');
    try {
      await seedRuns(ctx.dir, [{ runId: 'o1', startedAt: '2026-03-01T00:00:00Z', outcomes: [p], outDir: out }]);
      const [entry] = await collectHistory(ctx.store, ctx.dir);
      expect(entry?.reportHtml).toBe(join(out, 'report.html'));
      const html = await readFile(await writeHistory(ctx.store, ctx.dir), 'utf8');
      expect(html).toContain(`<a href="../${basename(ctx.dir)}-out/my%20report/report.html">o1</a>`);
    } finally {
      await rm(dirname(out), { recursive: true, force: true });
    }
  });

  it('links relative to where the page is written', async () => {
    const store = await seed(ctx.dir);
    const file = await writeHistory(store, ctx.dir, join(ctx.dir, 'site', 'pages', 'h.html'));
    expect(await readFile(file, 'utf8')).toContain('<a href="../../r1/report.html">');
    expect(relativeHref('/a/b/page.html', '/a/run #1/report.html')).toBe('../run%20%231/report.html');
  });

  it('says so when there is no finished run', async () => {
    await writeFile(join(ctx.dir, 'stray.txt'), 'x');
    const html = await readFile(await writeHistory(ctx.store, ctx.dir), 'utf8');
    expect(html).toContain('No finished runs yet');
  });
});

describe('trendSvg', () => {
  it('plots each series in time order, skips null values, and places y by rate', () => {
    const svg = trendSvg([
      { at: '2026-01-02T00:00:00Z', values: { pass: 0.5, err: null }, label: 'b' },
      { at: '2026-01-01T00:00:00Z', values: { pass: 1, err: 0 }, label: 'a', href: 'a/report.html' },
    ], { title: 'T', series: [{ key: 'pass', title: 'pass rate', className: 'pass' }, { key: 'err', title: 'error rate', className: 'err' }], width: 140, height: 100 }).value;
    // inner box: x 40..126, y 26..70; pass: (40,26) then (126,48)
    expect(svg).toContain('<polyline points="40.0,26.0 126.0,48.0" class="line pass"/>');
    expect(svg.match(/class="dot err"/g)).toHaveLength(1);
    expect(svg).toContain('<a href="a/report.html"><circle cx="40.0" cy="26.0"');
    expect(svg).toContain('>2026-01-01</text>');
    expect(svg).toContain('>2026-01-02</text>');
  });
});
