import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunMessage } from '../../../src/notify/build';
import { MAX_REGRESSED_ROWS, MAX_ROW_TEXT } from '../../../src/notify/message';
import { renderSlack } from '../../../src/notify/slack';
import { renderTeams } from '../../../src/notify/teams';
import { previousCompatibleRun } from '../../../src/analysis/baselinePrevious';
import { selectLatestBaseline } from '../../../src/analysis/baselineSelect';
import { finalizeRun } from '../../../src/render/writeReports';
import type { RowResult } from '../../../src/domain/results';
import { meta, row, useTempStore } from '../reports/fixtures';

describe('the message of a finished run, from the results store', () => {
  const tmp = useTempStore();

  /** A run of 8 rows finalized as the activity does it (baseline latest, a gate). */
  async function finishedRun(runId: string, startedAt: string, rows: RowResult[], failUnder?: number): Promise<void> {
    const { store } = tmp;
    await store.init(runId, meta({ runId, workflowId: `wf-${runId}`, startedAt, rowCount: rows.length }));
    await store.append(runId, rows);
    const target = { runId, dataset: 'datasets/demo.csv', datasetSha256: 'abc123', siteId: 'site-1', model: null, maxErrorRate: 0 };
    await finalizeRun(store, runId, { outDir: join(tmp.dir, runId), baselineChoice: await selectLatestBaseline(store, target), gate: { failUnder } });
  }

  it('lists the first regressed rows with the answer before and now, truncated, every reason, the change and the errors', async () => {
    const base = Array.from({ length: 8 }, (_, i) => row(i, { answer: `Good answer ${i}. ${'long '.repeat(200)}` }));
    await finishedRun('before', '2026-01-01T00:00:00.000Z', base);
    const now = base.map((r, i) => (i < 7 ? { ...r, outcome: 'failed' as const, answer: `Bad answer ${i}.` } : { ...r, outcome: 'error' as const, answer: undefined, error: '503 upstream busy', errorType: 'ServerError' }));
    await finishedRun('after', '2026-01-02T00:00:00.000Z', now, 0.9);

    const m = await buildRunMessage(tmp.store, 'after', { reportBaseUrl: 'https://r.example.com' });
    expect(m.verdict).toBe('failed');
    const summary = await tmp.store.getSummary('after');
    expect(m.reasons).toEqual(summary?.gate?.reasons);
    expect(m.reasons.length).toBeGreaterThan(1);
    expect(m.baseline).toMatchObject({ runId: 'before', passRate: 1, delta: -1, regressed: 7 });
    expect(m.regressedTotal).toBe(7);
    expect(m.regressed).toHaveLength(MAX_REGRESSED_ROWS);
    expect(m.regressed[0]).toMatchObject({ id: 'r0', question: 'Question 0?', now: 'Bad answer 0.' });
    expect(m.regressed[0]?.before?.startsWith('Good answer 0.')).toBe(true);
    expect(m.regressed[0]?.before?.length).toBe(MAX_ROW_TEXT);
    expect(m.regressed[0]?.before?.endsWith('…')).toBe(true);
    expect(m.errors).toEqual([{ type: 'ServerError', count: 1, example: '503 upstream busy (row r7)' }]);
    expect(m.reportUrl).toBe('https://r.example.com/after/report.html');

    // What `recovered` compares with: the run before, its verdict.
    expect(await previousCompatibleRun(tmp.store, { runId: 'after', datasetSha256: 'abc123', siteId: 'site-1', model: null, startedAt: '2026-01-02T00:00:00.000Z' }))
      .toEqual({ runId: 'before', verdict: 'no_threshold', failed: false });
    await finishedRun('fixed', '2026-01-03T00:00:00.000Z', base);
    expect(await previousCompatibleRun(tmp.store, { runId: 'fixed', datasetSha256: 'abc123', siteId: 'site-1', model: null, startedAt: '2026-01-03T00:00:00.000Z' }))
      .toMatchObject({ runId: 'after', failed: true });
    expect(await previousCompatibleRun(tmp.store, { runId: 'fixed', datasetSha256: 'another', siteId: 'site-1', model: null, startedAt: '2026-01-03T00:00:00.000Z' })).toBeUndefined();
  });
});

describe('the message of a run whose errors share one cause', () => {
  const tmp = useTempStore();

  it('carries the cause, and every destination shows it first', async () => {
    const refused = Array.from({ length: 4 }, (_, i) => row(i, {
      outcome: 'error', answer: undefined, errorType: 'AuthenticationError', errorStatus: 401, apiError: 'invalid_api_key',
      error: 'not sent: the run stopped on 401 invalid_api_key from GET /m2m/sites/{site_id}/sessions: … — check SITECHAT_API_KEY',
    }));
    await tmp.store.init('bad-key', meta({ runId: 'bad-key', rowCount: 4 }));
    await tmp.store.append('bad-key', refused);
    await finalizeRun(tmp.store, 'bad-key', { outDir: join(tmp.dir, 'bad-key') });
    const m = { ...(await buildRunMessage(tmp.store, 'bad-key', {})), trigger: 'failed' as const };
    expect(m.cause).toBe('4 of 4 errored rows: the API refused the key (401 invalid_api_key): check SITECHAT_API_KEY');
    expect(m.errors).toMatchObject([{ type: 'AuthenticationError', count: 4 }]);
    // Right under the title in Slack and Teams; a field of its own in the webhook payload (renderWebhook spreads the message).
    expect(renderSlack(m).blocks[1]).toMatchObject({ type: 'section', text: { text: expect.stringContaining('(401 invalid_api_key)') as unknown } });
    expect(renderTeams(m).attachments[0]?.content.body[1]).toMatchObject({ type: 'TextBlock', text: expect.stringContaining('(401 invalid_api_key)') as unknown });
  });
});
