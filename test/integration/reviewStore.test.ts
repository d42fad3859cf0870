import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { createTemporalClient } from '../../src/temporal/client';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openStore, type OpenedStore } from '../../src/store/open';
import { finalizeRun } from '../../src/render/writeReports';
import type { Outcome, RowResult } from '../../src/domain/results';
import type { MultiSiteSummary } from '../../src/domain/multiSite';
import { resolveReviewTarget } from '../../src/review/runs';
import { ReviewSession } from '../../src/review/session';
import { describeWithPostgres } from '../helpers/usePostgres';

const PARENT = 'ms-20261123-2200-abcdef';
const SITES = ['site-a', 'site-b'];
const OUTCOMES: Outcome[] = ['passed', 'uncertain', 'failed', 'passed', 'uncertain'];

/**
 * The review of a multi-site run kept in the PostgreSQL store: both sites' rows in one queue, a save settles the row
 * there, stores the label there, recomputes that site's verdict and rewrites the combined report. The rows have no
 * request ids, so no feedback is due (the feedback path is tested in test/cli/review.test.ts).
 */
describeWithPostgres('sitechat review on the PostgreSQL store, multi-site', (pg) => {
  let opened: OpenedStore;
  let runsDir: string;
  let connection: Connection;

  beforeAll(async () => {
    runsDir = mkdtempSync(join(tmpdir(), 'sitechat-review-pg-'));
    opened = openStore(runsDir, await pg.freshDatabase());
    connection = await Connection.connect({ address: inject('temporalAddress') });
    for (const siteId of SITES) {
      const runId = `${PARENT}-${siteId}`;
      await opened.store.init(runId, {
        runId, workflowId: `sitechat-evaluation-${PARENT}-${siteId}`, kind: 'evaluation', dataset: '/data/q.csv', datasetSha256: 'cd'.repeat(32), siteId,
        startedAt: '2026-11-23T22:00:00.000Z', rowCount: OUTCOMES.length, options: {},
      });
      const rows: RowResult[] = OUTCOMES.map((outcome, index) => ({
        id: `q${index}`, index, line: index + 2, question: `Question ${index} <b>?</b>`, expected: `Reference ${index}`, answer: `Answer ${index} of ${siteId}`, outcome,
        assertions: [{ type: 'reference', pass: outcome === 'passed', ...(outcome === 'uncertain' && { uncertain: true as const }), score: 0.5, reason: `reason ${index}` }],
      }));
      await opened.store.append(runId, rows);
      await finalizeRun(opened.store, runId, { outDir: join(runsDir, runId), finishedAt: '2026-11-23T22:05:00.000Z', gate: { failUnder: 0.5, maxUncertainRate: 0.3 } });
    }
  });
  afterAll(async () => {
    await connection?.close();
    await opened?.close();
    if (runsDir) rmSync(runsDir, { recursive: true, force: true });
  });

  it('queues both sites, saves a label into the store, recomputes that site and rewrites the combined report', async () => {
    // The parent run notified a webhook: the combined report rewritten by the save keeps that section.
    await opened.store.recordNotifications(PARENT, [{ destination: 'HOOK_URL', kind: 'webhook', status: 'delivered', trigger: 'failed', deliveryId: 'ab'.repeat(16) }]);
    const target = await resolveReviewTarget(opened.store, PARENT);
    expect(target).toMatchObject({ multiSite: true, runs: [{ siteId: 'site-a' }, { siteId: 'site-b' }] });
    const client = createTemporalClient(connection, { namespace: 'default' });
    const session = new ReviewSession({ store: opened.store, client, runsDir, by: 'ana' }, target, { sample: 1 });
    await session.open();
    const state = session.snapshot();
    // Every site's uncertain rows, then failed ones, then one spot check per site.
    expect(state.items.map((i) => `${i.siteId}:${i.rowId}:${i.reason}`)).toEqual([
      'site-a:q1:uncertain', 'site-a:q4:uncertain', 'site-b:q1:uncertain', 'site-b:q4:uncertain',
      'site-a:q2:failed', 'site-b:q2:failed',
      expect.stringMatching(/^site-a:q[03]:spot-check$/), expect.stringMatching(/^site-b:q[03]:spot-check$/),
    ]);
    expect(state.runs.map((r) => r.verdict)).toEqual(['failed', 'failed']);

    const saved = await session.save({ runId: `${PARENT}-site-b`, rowId: 'q4', verdict: 'pass', note: 'right' });
    expect(saved.feedback).toEqual({ state: 'not-due', why: 'the row has no answered request to rate' });
    expect(saved.run).toMatchObject({ siteId: 'site-b', uncertain: 1, reviewed: 1, verdict: 'passed' });

    const rows: RowResult[] = [];
    for await (const row of opened.store.read(`${PARENT}-site-b`)) rows.push(row);
    expect(rows.find((r) => r.id === 'q4')).toMatchObject({ outcome: 'passed', decision: { by: 'label', verdict: 'pass', reason: 'label by ana: right', was: 'uncertain' } });
    expect(await opened.store.getSummary(`${PARENT}-site-b`)).toMatchObject({ reviewed: 1, uncertain: 1, gate: { verdict: 'passed' } });
    expect(await opened.store.getSummary(`${PARENT}-site-a`)).toMatchObject({ uncertain: 2, gate: { verdict: 'failed' } });
    const labels = await opened.store.getLabels([saved.item.labelKey]);
    expect(labels.get(saved.item.labelKey)).toMatchObject({ siteId: 'site-b', verdict: 'pass', note: 'right', by: 'ana', source: `review ${PARENT}-site-b` });

    // The combined report of the parent, and each site's own reports on this host.
    const combined = JSON.parse(readFileSync(join(runsDir, PARENT, 'summary.json'), 'utf8')) as MultiSiteSummary;
    expect(combined.sites.map((s) => [s.siteId, s.verdict])).toEqual([['site-a', 'failed'], ['site-b', 'passed']]);
    expect(readFileSync(join(runsDir, PARENT, 'report.md'), 'utf8')).toMatch(/## Notifications\n\n- HOOK_URL: delivered \(trigger failed\)/u);
    expect(readFileSync(join(runsDir, `${PARENT}-site-b`, 'report.md'), 'utf8')).toContain('| Reviewed | 1 row settled by labels |');
    expect(existsSync(join(runsDir, 'history.html'))).toBe(true);

    // A second review of the same run shows the label kept, on that site only.
    const again = new ReviewSession({ store: opened.store, client, runsDir }, await resolveReviewTarget(opened.store, PARENT), { sample: 1 });
    await again.open();
    const settled = again.snapshot().items.filter((i) => i.label).map((i) => `${i.siteId}:${i.rowId}:${i.label?.verdict}`);
    expect(settled).toEqual(['site-b:q4:pass']);
  });
});
