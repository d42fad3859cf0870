import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import { writeHistory } from '../../src/render/historyPage';
import type { Provenance } from '../../src/domain/provenance';
import type { Outcome, RowResult } from '../../src/domain/results';
import { finalizeRun } from '../../src/render/writeReports';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium';
import { seedRuns } from '../helpers/seedRuns';

/** Where a screenshot goes: docs/img when asked (SITECHAT_WRITE_SCREENSHOTS=1), else beside the page. */
function shotPath(dir: string, name: string): string {
  return process.env.SITECHAT_WRITE_SCREENSHOTS === '1' ? resolve(__dirname, '..', '..', 'docs', 'img', name) : join(dir, name);
}

/** Rows as long as the demo dataset's: a question, a few sentences of answer, a reference, each grader's reason. */
function demoLikeRows(n: number): RowResult[] {
  const answer = 'Go to Settings > Billing and click Cancel subscription. Your plan stays active until the end of the current billing period, '
    + 'then your account switches to the Free plan. Your files are kept, but you cannot upload more once you are over 5 GB.';
  return Array.from({ length: n }, (_, index) => ({
    id: `q${String(index + 1).padStart(2, '0')}`, index, line: index + 2, question: 'How do I cancel my subscription and what happens to my files?',
    tags: ['billing', 'account'], outcome: index % 4 === 0 ? 'failed' : 'passed', answer, latencyMs: 2000 + index, confidenceScore: 80,
    expected: 'Go to Settings > Billing and click Cancel subscription. Your plan stays active until the end of the current billing period.',
    assertions: [{
      type: 'reference', pass: index % 4 !== 0, score: 0.7, rule: 'gives the answer of "Go to Settings > Billing and click Cancel subscription …" (content words ≥ 0.6)',
      reason: index % 4 === 0 ? 'conflicting number: 30 days against 14 days' : 'answer contains the expected answer',
    }],
  }));
}

const runner = { version: '0.1.0', commit: 'abc1234' };
const simulator: Provenance = { answers: { from: 'simulator', host: '127.0.0.1:8787' }, grading: { assertions: [] }, runner };
const api: Provenance = { answers: { from: 'api', host: 'chat.example.com' }, grading: { assertions: [] }, runner };

/** 66 outcomes: `failed` failures and `errors` errors, the rest passed. */
function outcomes(failed: number, errors: number): Outcome[] {
  return Array.from({ length: 66 }, (_, i) => (i < failed ? 'failed' : i < failed + errors ? 'error' : 'passed'));
}

/** report.html and history.html in Chromium (Debian's, driven by playwright-core), at a laptop's 1280 px. */
describe.skipIf(skipWithoutChromium())('report.html and history.html in a real browser', () => {
  let dir: string;
  let browser: Browser | undefined;
  let page: Page;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-report-pages-'));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('All rows: at 1280 px the answer column gets room to be read (a third of the table, not a sliver)', async () => {
    const store = new FileResultsStore(join(dir, 'runs'));
    await store.init('r1', {
      runId: 'r1', workflowId: 'sitechat-evaluation-r1', kind: 'evaluation', dataset: '/home/someone/datasets/demo.csv', datasetSha256: 'ab'.repeat(32),
      siteId: 'demo-site', startedAt: '2026-11-23T10:00:00.000Z', rowCount: 12, options: {},
    });
    await store.append('r1', demoLikeRows(12));
    await finalizeRun(store, 'r1', { outDir: join(dir, 'report') });
    await page.goto(`file://${join(dir, 'report', 'report.html')}`);
    const widths = await page.$$eval('#rows thead th', (ths) => Object.fromEntries(ths.map((th) => [th.textContent, th.getBoundingClientRect().width])));
    const table = await page.$eval('#rows', (t) => t.getBoundingClientRect().width);
    const answer = widths.answer ?? 0;
    // About 50 characters a line at the report's 14 px; every other column is narrower.
    expect(answer).toBeGreaterThanOrEqual(320);
    expect(answer / table).toBeGreaterThanOrEqual(0.25);
    for (const [name, width] of Object.entries(widths)) if (name !== 'answer') expect(width, name).toBeLessThan(answer);
    // The table fits the page: nothing to scroll sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
  });

  it('history: each verdict in words with why, a run failed on lost feedback marked so, simulator and real-API runs on separate trends', async () => {
    const runsDir = join(dir, 'history');
    const store = await seedRuns(runsDir, [
      { runId: '20261122-2236-ba6565', startedAt: '2026-11-22T22:36:00Z', outcomes: outcomes(5, 1), provenance: simulator, dataset: '/srv/qa/datasets/demo.csv', failUnder: 0.85, maxErrorRate: 0.05 },
      { runId: '20261122-2237-6d28c5', startedAt: '2026-11-22T22:37:00Z', outcomes: outcomes(4, 4), provenance: simulator, dataset: '/srv/qa/datasets/demo.csv', failUnder: 0.85, maxErrorRate: 0.05 },
      { runId: '20261122-2238-6de90f', startedAt: '2026-11-22T22:38:00Z', outcomes: outcomes(6, 1), provenance: simulator, dataset: '/srv/qa/datasets/demo.csv', maxErrorRate: 0.05 },
      { runId: '20261123-0200-1a2b3c', startedAt: '2026-11-23T02:00:00Z', outcomes: outcomes(7, 0), provenance: api, dataset: '/srv/qa/datasets/demo.csv', failUnder: 0.85 },
      // Every answer graded as before, but the feedback of two rows was lost: FAILED, whatever the pass rate says.
      { runId: '20261124-0200-4d5e6f', startedAt: '2026-11-24T02:00:00Z', outcomes: outcomes(6, 0), provenance: api, dataset: '/srv/qa/datasets/demo.csv', failUnder: 0.85, lostFeedback: 2 },
      { runId: '20261125-0200-7a8b9c', startedAt: '2026-11-25T02:00:00Z', outcomes: outcomes(12, 0), provenance: api, dataset: '/srv/qa/datasets/demo.csv', failUnder: 0.85 },
    ]);
    await page.goto(`file://${await writeHistory(store, runsDir)}`);
    // Each group's title, its trend charts, and its table's cells as the page shows them (innerText).
    const groups = await page.evaluate(`Array.from(document.querySelectorAll('section.group')).map((s) => ({
      title: s.querySelector('h2').textContent,
      charts: s.querySelectorAll('svg.trend').length,
      rows: Array.from(s.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.innerText)),
    }))`) as { title: string; charts: number; rows: string[][] }[];
    expect(groups.map((g) => [g.title, g.charts])).toEqual([
      ['demo.csv on site site-a, the site\'s default model · Site Chat API at chat.example.com', 1],
      ['demo.csv on site site-a, the site\'s default model · built-in simulator', 1],
    ]);
    const [real, sim] = groups;
    // Columns: run, started, kind, model, rows, pass rate, uncertain, errors, verdict, why.
    expect(real?.rows.map((r) => [r[0], r[8]])).toEqual([
      ['20261125-0200-7a8b9c', 'FAILED'], ['20261124-0200-4d5e6f', 'FAILED'], ['20261123-0200-1a2b3c', 'PASSED'],
    ]);
    expect(real?.rows[0]?.[9]).toMatch(/^pass rate 81\.8% .* is below 85\.0%/);
    expect(real?.rows[1]?.[9]).toMatch(/^feedback was not recorded for 2 rows/);
    expect(real?.rows[2]?.[9]).toBe('');
    expect(sim?.rows.map((r) => r[8])).toEqual(['no quality threshold set', 'FAILED', 'PASSED']);
    expect(sim?.rows[1]?.[9]).toMatch(/^4 of 66 rows errored or timed out/);
    expect(await page.evaluate('document.body.innerText')).not.toContain('no_threshold');
    // The run that failed on lost feedback has its pass-rate point ringed as failed.
    expect(await page.$$eval('circle.dot.pass.failed title', (ts) => ts.map((t) => t.textContent ?? ''))).toEqual(expect.arrayContaining([expect.stringMatching(/^run 20261124-0200-4d5e6f .*FAILED: feedback was not recorded/)]));
    // docs/img/history.png is this page, rewritten only when asked.
    await page.screenshot({ path: shotPath(dir, 'history.png'), fullPage: true });
  });
});
