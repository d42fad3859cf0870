import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { labelFeedbackWorkflowId } from '../../workflows/labelFeedbackTypes';
import type { RunResult } from '../../src/domain/run';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium';
import { CLI, sitechat } from '../helpers/cli';
import { startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { GRADED_HEADER, GRADED_ROWS } from '../helpers/uncertainRows';
import { exited, spawnWorker } from '../helpers/workerProcess';
import { failOnWarnings } from '../helpers/warnings';

/**
 * Against the demo knowledge base (test/helpers/uncertainRows.ts): `pass` passes, `fail` fails on evidence, the two
 * `unsure` rows leave the `reference` grader uncertain; no judge, so they stay uncertain and get no feedback.
 */
const HEADER = GRADED_HEADER;
const ROWS = Object.values(GRADED_ROWS);

interface Review { child: ChildProcess; url: Promise<string>; stderr: () => string }

/** `sitechat review` in its own process, as a person starts it; the URL is the one line it prints on stdout. */
function startReview(stack: Stack, runId: string, extra: string[] = []): Review {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
  // No `--worker`: the feedback goes out on the stack's workers, as in a cluster.
  const child = spawn(process.execPath, [CLI, 'review', runId, '--by', 'tester', ...extra], {
    cwd: stack.runsDir,
    env: {
      ...clean, TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace, SITECHAT_RUNS_DIR: stack.runsDir,
      SITECHAT_BASE_URL: stack.config.baseUrl, SITECHAT_API_KEY: stack.config.apiKey,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  failOnWarnings('sitechat review', child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('http://'));
      if (line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`sitechat review exited ${code} before printing its URL:\n${err}`)));
  });
  return { child, url, stderr: () => err };
}

/** The token of the printed URL: in its fragment, which a browser never sends to a server. */
function tokenOf(url: URL): string {
  return new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
}

async function stop(review: Review | undefined): Promise<void> {
  if (!review || review.child.exitCode !== null || review.child.signalCode !== null) return;
  review.child.kill('SIGTERM');
  await exited(review.child);
}

function feedbackCalls(stack: Stack): number {
  return Object.values(stack.sim.stats().requests['feedback.submit'] ?? {}).reduce((a, b) => a + b, 0);
}

async function storedRow(stack: Stack, runId: string, id: string): Promise<RowResult | undefined> {
  for await (const row of new FileResultsStore(stack.runsDir).read(runId)) if (row.id === id) return row;
  return undefined;
}

function summaryOf(stack: Stack, runId: string): RunSummary {
  return JSON.parse(readFileSync(join(stack.runsDir, runId, 'summary.json'), 'utf8')) as RunSummary;
}

describe('sitechat review (real Temporal, simulator over HTTP, the CLI as a process, Chromium)', () => {
  let stack: Stack;
  let runId: string;
  let browser: Browser | undefined;
  let review: Review | undefined;
  const skipBrowser = skipWithoutChromium();

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    stack = await startStack(__filename);
    await stack.startWorkers({ judge: undefined });
    runId = `review-${Date.now()}`;
    const dataset = writeDataset(stack, HEADER, ROWS);
    // Uncertain rows within 30 % pass the gate: 2 of 4 fail it, 1 of 4 does not.
    const { summary } = (await (await startRun(stack, dataset, { failUnder: 0.5, maxUncertainRate: 0.3 }, 'evaluation', runId)).result()) as RunResult;
    expect(summary).toMatchObject({ uncertain: 2, gate: { verdict: 'failed' } });
  });
  afterAll(async () => {
    await browser?.close();
    await stop(review);
    await stack?.close();
  });

  it('names each bad flag and an unknown run, exit 2, before anything starts', async () => {
    const bad = await sitechat(stack.runsDir, ['review', 'latest', '--port', 'abc', '--sample', '-1', '--limit', '0'], { SITECHAT_RUNS_DIR: stack.runsDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port: must be a whole number/);
    expect(bad.stderr).toMatch(/--sample: must be a whole number ≥ 0/);
    expect(bad.stderr).toMatch(/--limit: must be a whole number ≥ 1/);
    const unknown = await sitechat(stack.runsDir, ['review', 'no-such-run'], { SITECHAT_RUNS_DIR: stack.runsDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run no-such-run in the results store');
  });

  it('refuses every API request without the token header (a cookie or a query is not one), and a foreign Host; no CORS header', async () => {
    review = startReview(stack, runId);
    const url = new URL(await review.url);
    // A review starts no worker unless asked, even with an API in its environment.
    expect(review.stderr()).toContain('no in-process worker: the feedback of settled rows goes out on the `npx sitechat worker` processes');
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.search).toBe('');
    const token = tokenOf(url);
    expect(token).toMatch(/^[\w-]{32}$/u);
    const base = url.origin;
    // The page and its assets: constants, without the token, and no cookie set.
    for (const path of ['/', '/review.js', '/review.css']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text()).not.toContain(token);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const wrong = 'A'.repeat(token.length);
    for (const [path, init] of [
      ['/api/state', {}], ['/api/agreement', {}], [`/api/state?token=${token}`, {}], ['/api/state', { headers: { 'X-Review-Token': wrong } }],
      ['/api/state', { headers: { Cookie: `sitechat_review_token=${token}` } }],
      ['/api/labels', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' }, body: JSON.stringify({ runId, rowId: 'unsure1', verdict: 'pass' }) }],
      ['/api/labels', { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: `sitechat_review_token=${token}` }, body: '{}' }],
    ] as const) {
      const res = await fetch(`${base}${path}`, init as RequestInit);
      expect(res.status, `${(init as RequestInit).method ?? 'GET'} ${path}`).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    // A DNS-rebinding page sends its own name as Host: refused before the token is looked at.
    const rebound = await new Promise<number>((resolve, reject) => {
      request({ host: url.hostname, port: url.port, path: '/api/state', headers: { Host: `evil.example:${url.port}`, 'X-Review-Token': token } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject).end();
    });
    expect(rebound).toBe(403);
    const ok = await fetch(`${base}/api/state`, { headers: { 'X-Review-Token': token } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
    // A note with a control character is refused, naming it; nothing is saved.
    const nul = await fetch(`${base}/api/labels`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Review-Token': token }, body: JSON.stringify({ runId, rowId: 'unsure1', verdict: 'pass', note: 'ok\u0000' }),
    });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { error: string }).error).toContain('the note holds control character U+0000 (NUL) at character 3');
    const labelled = await storedRow(stack, runId, 'unsure1');
    expect(labelled?.decision?.by).toBe('graders');
  });

  it.skipIf(skipBrowser)('in Chromium: labels a row, sees the verdict change, reloads and sees the label kept; the feedback goes out once', async () => {
    review ??= startReview(stack, runId);
    const url = await review.url;
    const before = feedbackCalls(stack);
    browser = await launchChromium();
    // One context for the review page and the other port's page below: they share the cookie jar, as two tabs do.
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    // The run's report.html lists both uncertain rows under "Needs review".
    const reportHtml = `file://${join(stack.runsDir, runId, 'report.html')}`;
    await page.goto(reportHtml);
    expect(await page.textContent('h2#uncertain')).toMatch(/^Needs review \(2\)/);
    expect(await page.$$('article.review.uncertain')).toHaveLength(2);
    await page.goto(url);
    await page.waitForSelector('#row[data-row]');
    expect(await page.textContent('#progress')).toMatch(/^0 of \d+ settled/);
    expect(await page.textContent('#runs')).toContain('FAILED');
    // Uncertain rows first.
    expect(await page.textContent('#row .tag')).toBe('uncertain');
    const first = await page.getAttribute('#row', 'data-row');
    expect(['unsure1', 'unsure2']).toContain(first);
    // docs/img/review-page.png is this screenshot, rewritten only when asked (its run id changes on every run).
    const shot = process.env.SITECHAT_WRITE_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'img', 'review-page.png') : join(stack.runsDir, 'review-page.png');
    await page.screenshot({ path: shot });
    expect(existsSync(shot)).toBe(true);

    // A note a label file could not hold (an ANSI escape) is refused in the page: the row stays, nothing is sent.
    await page.fill('#note', 'red \u001b[31m note');
    await page.keyboard.press('Escape');
    await page.keyboard.press('p');
    expect(await page.isVisible('#note-error')).toBe(true);
    expect(await page.textContent('#note-error')).toContain('U+001B at character 5');
    expect(await page.getAttribute('#row', 'data-row')).toBe(first);
    expect(await page.textContent('#progress')).toMatch(/^0 of \d+ settled/);
    await page.fill('#note', '');
    await page.keyboard.press('Escape');

    await page.keyboard.press('n');
    await page.keyboard.type('answer gives the 5 GB');
    await page.keyboard.press('Escape');
    await page.keyboard.press('p');
    // The next row at once; the save in the background, then the verdict of the run as recomputed.
    expect(await page.getAttribute('#row', 'data-row')).not.toBe(first);
    expect(await page.isVisible('#note-error')).toBe(false);
    await page.waitForSelector('#runs .run.passed');
    expect(await page.textContent('#runs .verdict')).toBe('PASSED');
    expect(await page.textContent('#progress')).toMatch(/^1 of \d+ settled$/);
    // The graders' agreement with the labels so far, as `sitechat labels agreement --run` gives it.
    // Polled from the test, not with waitForFunction: a predicate given as a string is eval'd in the page, which the
    // page's CSP (script-src 'self') rightly refuses.
    await expect.poll(() => page.textContent('#agreement-count'), { timeout: 30_000 }).toMatch(/^1 row labelled; too few to go by: label 29 more/u);
    // One label supports no threshold yet: the page says nothing of one.
    expect(await page.textContent('#agreement-supported')).toBe('');
    expect(await page.textContent('#runs .run')).toContain('reviewed: 1 row settled by labels');
    expect(await page.$$eval('#agreement-rows tr td:first-child', (tds) => tds.map((td) => td.textContent))).toContain('reference @ 0.6');

    const summary = summaryOf(stack, runId);
    expect(summary).toMatchObject({ uncertain: 1, reviewed: 1, gate: { verdict: 'passed' } });
    expect(readFileSync(join(stack.runsDir, runId, 'report.md'), 'utf8')).toContain('| Reviewed | 1 row settled by labels |');
    expect(readFileSync(join(stack.runsDir, runId, 'junit.xml'), 'utf8')).toContain('<property name="reviewed" value="1 row settled by labels"/>');
    expect(existsSync(join(stack.runsDir, 'history.html'))).toBe(true);
    const report = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await report.goto(reportHtml);
    expect(await report.textContent('h2#uncertain')).toMatch(/^Needs review \(1\)/);
    expect(await report.textContent('body')).toContain('1 row settled by labels');
    // The person's decision, who, when and the note, beside what the graders said (their own verdict, named as theirs).
    const card = `article#row-${first}`;
    expect(await report.textContent('h2#passed-by-person')).toMatch(/^Passed by a person \(1\)/);
    // The wording is pinned in test/unit/reports/labelView.test.ts; here, the saved label's verdict, author and note.
    const person = await report.textContent(`${card} .person`);
    expect(person).toMatch(/^Decided by a person: pass by tester · /u);
    expect(person).toMatch(/UTCanswer gives the 5 GB$/u);
    expect(await report.textContent(`${card} .graders-said`)).toBe('Graders said uncertain (overruled by the person)');
    expect(await report.textContent(`${card} ul.grades`)).toContain('reference');
    const tableRow = await report.textContent(`#rows tr:has(td.id:text-is("${first}"))`);
    expect(tableRow).toContain('passed (decided by a person)');
    expect(tableRow).toContain('decided by a person: pass · by tester · ');
    expect(tableRow).toContain(' · note: answer gives the 5 GB');
    // docs/img/report-labelled.png is this card, rewritten only when asked.
    const reportShot = process.env.SITECHAT_WRITE_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'img', 'report-labelled.png') : join(stack.runsDir, 'report-labelled.png');
    await report.locator(card).screenshot({ path: reportShot });
    await report.close();
    const md = readFileSync(join(stack.runsDir, runId, 'report.md'), 'utf8');
    expect(md).toContain('**Decided by a person:** pass · by tester · ');
    expect(md).toContain(' · note: answer gives the 5 GB');
    expect(md).toContain('**Graders said uncertain (overruled by the person)**');
    const junit = readFileSync(join(stack.runsDir, runId, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="label.by" value="tester"/>');
    expect(junit).toContain('<property name="label.note" value="answer gives the 5 GB"/>');
    const row = await storedRow(stack, runId, first ?? '');
    expect(row).toMatchObject({
      outcome: 'passed',
      decision: {
        verdict: 'pass', by: 'label', reason: 'label by tester: answer gives the 5 GB', was: 'uncertain',
        label: { by: 'tester', at: expect.any(String), note: 'answer gives the 5 GB' }, graders: { verdict: 'uncertain', by: 'graders' },
      },
    });

    // A reload keeps the fragment, so the token: the label is kept.
    await page.reload();
    await page.waitForSelector('#row[data-row]');
    expect(await page.textContent('#progress')).toMatch(/^1 of \d+ settled$/);
    await page.keyboard.press('k');
    await page.waitForSelector(`#row[data-row="${first}"]`);
    expect(await page.textContent('#row')).toContain('settled: pass by tester');
    // Decided by a person: who, when, the note; the graders' view under its own heading.
    expect(await page.textContent('#person b')).toBe('Decided by a person: pass');
    expect(await page.textContent('#person .who')).toMatch(/^ by tester · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/u);
    expect(await page.textContent('#person .person-note')).toBe('answer gives the 5 GB');
    expect(await page.textContent('#graders-said')).toBe('Graders said uncertain (overruled by the person)');
    // docs/img/review-labelled.png is this screenshot, rewritten only when asked.
    const labelledShot = process.env.SITECHAT_WRITE_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'img', 'review-labelled.png') : join(stack.runsDir, 'review-labelled.png');
    await page.screenshot({ path: labelledShot });
    // Without the fragment there is no token: the page says which URL to open, and shows no row.
    const bare = await browser.newPage();
    await bare.goto(new URL(url).origin);
    await expect.poll(() => bare.textContent('#progress')).toMatch(/^No token in this address/u);
    expect(await bare.$$('#row[data-row]')).toHaveLength(0);
    await bare.close();

    // Another server on another port of 127.0.0.1, in the same browser: no cookie of the review page reaches it, and
    // its page can read none (cookies are not bound to a port, so a token in one would be everyone's on this host).
    const token = tokenOf(new URL(url));
    const seen: (string | undefined)[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.cookie);
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>another local page</title><p>hello</p>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as AddressInfo).port;
      expect(String(port)).not.toBe(new URL(url).port);
      const foreign = await context.newPage();
      await foreign.goto(`http://127.0.0.1:${port}/`);
      expect(seen.length).toBeGreaterThan(0);
      for (const cookie of seen) expect(cookie ?? '').not.toContain(token);
      expect(await foreign.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).not.toContain(token);
      expect(JSON.stringify(await context.cookies())).not.toContain(token);
      await foreign.close();
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }

    // The feedback workflow (on the stack's workers) sends `good` once and records it on the row.
    await stack.client.workflow.getHandle(labelFeedbackWorkflowId(runId, first ?? '')).result();
    expect((await storedRow(stack, runId, first ?? ''))?.feedback).toBe('good');
    expect(feedbackCalls(stack) - before).toBe(1);
  });

  it.skipIf(skipBrowser)('shows answers and questions as text, never as markup (XSS)', async () => {
    const store = new FileResultsStore(stack.runsDir);
    const xssRun = `xss-${Date.now()}`;
    await store.init(xssRun, {
      runId: xssRun, workflowId: `sitechat-evaluation-${xssRun}`, kind: 'evaluation', dataset: '/d.csv', datasetSha256: 'ab'.repeat(32), siteId: 'site-x',
      startedAt: new Date().toISOString(), rowCount: 1, options: {},
    });
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await store.append(xssRun, [{
      id: 'x1', index: 0, line: 2, question: `Q ${payload}`, expected: `R ${payload}`, answer: `A ${payload}`, outcome: 'uncertain',
      assertions: [{ type: 'reference', pass: false, uncertain: true, score: 0.2, reason: `why ${payload}` }],
    }]);
    const other = startReview(stack, xssRun);
    try {
      browser ??= await launchChromium();
      const page = await browser.newPage();
      await page.goto(await other.url);
      await page.waitForSelector('#row[data-row="x1"]');
      expect(await page.textContent('#answer')).toBe(`A ${payload}`);
      expect(await page.textContent('#row')).toContain(`Q ${payload}`);
      expect(await page.$$('#row img, #row script')).toHaveLength(0);
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    } finally {
      await stop(other);
    }
  });

  it('sends a settled row\'s feedback exactly once: the review server SIGKILLed mid-save, a second save, two worker processes', async () => {
    await stop(review);
    review = undefined;
    // The feedback runs on two `sitechat worker` processes only.
    await stack.workers?.shutdown();
    const workers = [spawnWorker(stack), spawnWorker(stack)];
    try {
      const before = feedbackCalls(stack);
      const killed = startReview(stack, runId);
      const url = new URL(await killed.url);
      const token = tokenOf(url);
      const save = (origin: string, verdict: string, key = token): Promise<Response> => fetch(`${origin}/api/labels`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Review-Token': key }, body: JSON.stringify({ runId, rowId: 'unsure2', verdict }),
      });
      const pending = save(url.origin, 'pass').catch(() => undefined);
      // Killed as soon as the label is in the store: the row, its feedback workflow and the reports may or may not follow.
      const store = new FileResultsStore(stack.runsDir);
      for (;;) {
        let found = false;
        for await (const label of store.readLabels()) if (label.source === `review ${runId}` && label.question.startsWith('Can I get a refund')) found = true;
        if (found) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      killed.child.kill('SIGKILL');
      await exited(killed.child);
      await pending;

      // Started again: what the save left undone is finished; the person saves the row again, then changes it.
      const again = startReview(stack, runId);
      review = again;
      const url2 = new URL(await again.url);
      const token2 = tokenOf(url2);
      const second = await save(url2.origin, 'pass', token2);
      expect(second.status).toBe(200);
      const changed = (await (await save(url2.origin, 'fail', token2)).json()) as { feedback: { state: string } };
      expect(['already-started', 'sent-before']).toContain(changed.feedback.state);

      await stack.client.workflow.getHandle(labelFeedbackWorkflowId(runId, 'unsure2')).result();
      const row = await storedRow(stack, runId, 'unsure2');
      // The site got `good` (the first label) once; the changed label is the row's grade, its feedback is not sent again.
      expect(row).toMatchObject({ outcome: 'failed', feedback: 'good', decision: { by: 'label', verdict: 'fail', was: 'uncertain' } });
      expect(feedbackCalls(stack) - before).toBe(1);
      expect(stack.sim.stats().feedbackByValue.good).toBeGreaterThanOrEqual(1);
    } finally {
      for (const w of workers) w.kill('SIGTERM');
      await Promise.all(workers.map(exited));
      await stack.startWorkers({ judge: undefined });
    }
  });
});
