import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/analysis/compare/compare';
import { writeComparison } from '../../src/render/compare/write';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import type { Outcome, RowResult } from '../../src/domain/results';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium';

const XSS = '<img src=x onerror="document.title=\'pwned\'">';

async function seed(store: FileResultsStore, runId: string, model: string, outcomes: Outcome[]): Promise<void> {
  await store.init(runId, {
    runId, workflowId: `sitechat-evaluation-${runId}`, kind: 'evaluation', dataset: 'q.csv', datasetSha256: 'ab'.repeat(32), siteId: 'demo-site', model,
    startedAt: '2026-11-23T10:00:00.000Z', rowCount: outcomes.length, options: {},
  });
  const rows: RowResult[] = outcomes.map((outcome, index) => ({
    id: `q${index}`, index, line: index + 2, question: `Question ${index}?`, outcome, latencyMs: 900 + index,
    answer: index === 0 ? `${XSS} from ${model}` : `${model} says ${index}`,
  }));
  await store.append(runId, rows);
  await store.finish(runId, { runId } as never);
}

/** compare.html in Chromium (Debian's, driven by playwright-core): the side-by-side rows and their filters. */
describe.skipIf(skipWithoutChromium())('compare.html in a real browser', () => {
  let dir: string;
  let html: string;
  let browser: Browser | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-compare-html-'));
    const store = new FileResultsStore(dir);
    await seed(store, 'run-a', 'gpt-4o-mini', ['passed', 'passed', 'failed', 'passed', 'passed']);
    await seed(store, 'run-b', 'gpt-3.5-mini-sim', ['failed', 'passed', 'failed', 'failed', 'error']);
    const files = await writeComparison(await compareRuns(store, ['run-a', 'run-b']), join(dir, 'cmp'));
    html = `file://${files.html}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows every row side by side, filters to the rows that disagree and by text, and keeps answers as text', async () => {
    const page = await (browser as Browser).newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(html);
    const visible = async () => page.$$eval('#sbs tbody tr', (trs) => trs.filter((tr) => !(tr as unknown as { hidden: boolean }).hidden).map((tr) => tr.querySelector('td')?.textContent));
    expect(await visible()).toEqual(['q0', 'q1', 'q2', 'q3', 'q4']);
    expect(await page.$$eval('#sbs thead th', (ths) => ths.map((th) => th.textContent))).toEqual(['row', 'question', 'gpt-4o-mini @ demo-site', 'gpt-3.5-mini-sim @ demo-site']);
    await page.check('#only-disagree');
    // q0 and q3 differ in grade; q4 is graded by one run only (an error in the other).
    expect(await visible()).toEqual(['q0', 'q3', 'q4']);
    expect(await page.textContent('#shown')).toBe('3');
    await page.fill('#filter', 'says 3');
    expect(await visible()).toEqual(['q3']);
    await page.uncheck('#only-disagree');
    await page.fill('#filter', '');
    expect(await visible()).toHaveLength(5);
    // The answer with markup is shown as text: no <img> in the page, the title untouched.
    expect(await page.$$('#sbs img')).toHaveLength(0);
    expect(await page.textContent('#sbs tbody tr:first-child')).toContain(XSS);
    expect(await page.title()).toBe('Comparison of 2 runs');
    expect(await page.textContent('#conclusion')).toMatch(/No significant difference/);
    const shot = join(dir, 'compare.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(existsSync(shot)).toBe(true);
  });
});
