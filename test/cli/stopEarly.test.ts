import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, startSimulator, type SimulatorHandle } from '../../src/sim';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { FIRST_ASKS } from '../../src/domain/stopEarly';
import { CLI, sitechat } from '../helpers/cli';
import { namespaceForFile } from '../helpers/namespace';

const CONCURRENCY = 4;

/**
 * The case: SITECHAT_BASE_URL set (a simulator started on its own), no SITECHAT_TENANT_ID (so no model check
 * before the run), a mistyped `--model`. Every question would get 400 `invalid payload`; the run stops after the first
 * ones instead of sending them all.
 */
describe('a run whose first questions are all refused alike (built CLI, real Temporal dev server, a separately started simulator)', () => {
  let dir: string;
  let sim: SimulatorHandle;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-stop-early-'));
    sim = await startSimulator({ port: 0, latencyScale: 0.02, rateLimit: 0 });
    const rows = Array.from({ length: 60 }, (_, i) => `r${i + 1},How much does the Personal plan cost? (${i + 1}),$9.99`);
    writeFileSync(join(dir, 'q.csv'), ['id,question,must_include', ...rows].join('\n') + '\n');
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`stops after the first ${FIRST_ASKS} 400s: the rest skipped with the reason, the summary says what to fix, exit 2`, async () => {
    const ran = await sitechat(dir, ['run', 'q.csv', '--model', 'gpt-4o-mni', '--concurrency', String(CONCURRENCY), '--out', join(dir, 'report')], {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespaceForFile(__filename), SITECHAT_BASE_URL: sim.baseUrl,
      SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_RATE_LIMIT: '0', SITECHAT_RUNS_DIR: join(dir, 'runs'),
    });
    expect(ran.code, ran.stderr).toBe(2);
    // The wording is pinned in test/unit/workflows/stopEarly.test.ts; here, the count, the status and the hint.
    expect(ran.stderr).toContain(`the first ${FIRST_ASKS} questions all got 400 invalid payload `);
    expect(ran.stderr).toContain('check --model');
    // The first questions, and at most the others a lane had out when they ended.
    const asked = Object.values(sim.stats().requests['chat.async'] ?? {}).reduce((a, b) => a + b, 0);
    expect(asked).toBeGreaterThanOrEqual(FIRST_ASKS);
    expect(asked).toBeLessThanOrEqual(FIRST_ASKS + CONCURRENCY);

    const rows = readFileSync(join(dir, 'report', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);
    expect(rows).toHaveLength(60);
    const errors = rows.filter((r) => r.outcome === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(FIRST_ASKS);
    expect(errors.every((r) => r.error?.startsWith('400 invalid payload'))).toBe(true);
    const skipped = rows.filter((r) => r.outcome === 'skipped');
    expect(errors.length + skipped.length).toBe(60);
    expect(skipped.filter((r) => r.error?.startsWith(`not sent: the first ${FIRST_ASKS} questions all got 400 invalid payload`)).length).toBeGreaterThanOrEqual(60 - FIRST_ASKS - CONCURRENCY);
    const summary = JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.stopped).toMatch(/^the first 10 questions all got 400 invalid payload /u);
    expect(summary.stopped).toContain('check --model');
    expect(summary.gate?.verdict).toBe('failed');
    expect(summary.gate?.reasons[0]).toBe(`the run stopped before asking every question: ${summary.stopped}`);
  });

  it('with a wrong key: exit 3, and the terminal, summary.json, report.md and report.html lead with the cause', async () => {
    const out = join(dir, 'wrong-key');
    const ran = await sitechat(dir, ['run', 'q.csv', '--out', out], {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespaceForFile(__filename), SITECHAT_BASE_URL: sim.baseUrl,
      SITECHAT_API_KEY: 'sk-not-the-key', SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_RATE_LIMIT: '0', SITECHAT_RUNS_DIR: join(dir, 'runs'),
    });
    expect(ran.code, ran.stderr).toBe(3);
    const cause = 'the API refused the key (401 invalid_api_key): check SITECHAT_API_KEY';
    expect(ran.stderr).toContain(`the run failed: ${cause}`);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.cause).toMatchObject({ text: cause, rows: 60, errors: 60, status: 401, error: 'invalid_api_key' });
    expect(summary.errorsByType).toEqual({ AuthenticationError: 60 });
    // The cause is the first thing under each report's title; its 60 rows are one line, not 60 sections.
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    // The line's wording and escaping are pinned in test/unit/reports/cause.test.ts; here, that it leads, with this run's counts.
    const lead = md.split('\n\n')[1];
    expect(lead).toMatch(/^\*\*Cause:\*\* 60 of 60 errored rows: /u);
    expect(lead).toContain('(401 invalid\\_api\\_key)');
    expect(md).toContain('- 60 rows: the API refused the key');
    expect(md).not.toContain('### Row');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html.indexOf(`<p class="cause" role="alert"><b>Cause:</b> 60 of 60 errored rows: ${cause}</p>`)).toBeGreaterThan(0);
    expect(html.indexOf('<p class="cause"')).toBeLessThan(html.indexOf('class="cards"'));
    expect(html).not.toContain('<article class="review errored"');
  });
});
