import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { summaryTable } from '../../../src/cli/follow/summaryTable';
import { summarize } from '../../../src/analysis/summary';
import { finalizeRun } from '../../../src/render/writeReports';
import { iterate, meta, row, useTempStore } from './fixtures';

const RAG = 'failed to call rag service';

describe('re-asked after the service failed, and asked twice, in every report', () => {
  const ctx = useTempStore();

  it('counts re-asked rows and their failed requests apart from askedTwice; the failed sessions count as opened', async () => {
    const summary = await summarize(meta(), iterate([
      row(0, { sessionId: 's0b', reasked: [{ requestId: 'q0', sessionId: 's0a', error: RAG }] }),
      row(1, { outcome: 'error', sessionId: 's1c', reasked: [{ requestId: 'q1', sessionId: 's1a', error: RAG }, { sessionId: 's1b', error: RAG }] }),
      row(2, { sessionId: 's2' }),
    ]));
    expect(summary.reasked).toEqual({ rows: 2, requests: 3, answered: 1, rowIds: ['r0', 'r1'] });
    expect(summary.sessions.opened).toBe(6);
    expect(summaryTable(summary)).toContain('asked again re-asked after the service failed: 2 rows (3 requests), 1 answered on a re-ask: r0, r1');
    expect((await summarize(meta(), iterate([row(0)]))).reasked).toBeUndefined();
  });

  it('summary.json, report.md and report.html show the re-asks; a re-ask after a second send keeps the row in askedTwice', async () => {
    await ctx.store.init('ra', meta({ runId: 'ra', rowCount: 3 }));
    // r0 re-asked once and answered; r1 sent twice (a lost response) before its re-ask; r2 sent twice, no re-ask.
    await ctx.store.recordSubmission('ra', { rowId: 'r0', sends: 1, ask: 1, requestId: 'q0b', sessionId: 's0b', submittedAtMs: 1 });
    await ctx.store.recordSubmission('ra', { rowId: 'r1', sends: 1, ask: 1, earlierExtraSends: 1, requestId: 'q1b', sessionId: 's1b', submittedAtMs: 1 });
    await ctx.store.recordSubmission('ra', { rowId: 'r2', sends: 2, requestId: 'q2', sessionId: 's2', submittedAtMs: 1 });
    await ctx.store.append('ra', [
      row(0, { requestId: 'q0b', sessionId: 's0b', reasked: [{ requestId: 'q0a', sessionId: 's0a', error: RAG }] }),
      row(1, { requestId: 'q1b', sessionId: 's1b', reasked: [{ requestId: 'q1a', sessionId: 's1a', error: RAG }] }),
      row(2, { requestId: 'q2', sessionId: 's2' }),
    ]);
    const { summary, paths } = await finalizeRun(ctx.store, 'ra', { outDir: ctx.store.runDir('ra'), gate: {} });
    expect(summary).toMatchObject({ reasked: { rows: 2, requests: 2, answered: 2 }, askedTwice: { count: 2, rowIds: ['r1', 'r2'], extraSends: 2 } });
    expect(summary.gate?.verdict).not.toBe('failed');
    const line = 're-asked after the service failed: 2 rows (2 requests), 2 answered on a re-ask';
    expect(JSON.parse(await readFile(paths.summary, 'utf8'))).toMatchObject({ reasked: summary.reasked });
    expect(await readFile(paths.markdown, 'utf8')).toContain(`| Re-asked | ${line}: r0, r1 |`);
    const html = await readFile(paths.html, 'utf8');
    expect(html).toContain(`<h2>Asked again</h2><section class="asked-again"><p>${line}:`);
    expect(html).toContain('possibly asked twice');
  });

  it('a failed session a re-ask left is not listed as left open: the run closed it', async () => {
    await ctx.store.init('lo', meta({ runId: 'lo', rowCount: 1 }));
    // The re-ask was abandoned (a second cancel) before its send: the record still names the failed request's session.
    await ctx.store.recordSubmission('lo', { rowId: 'r0', sends: 1, requestId: 'q0a', sessionId: 's0a', submittedAtMs: 1 });
    await ctx.store.append('lo', [row(0, { outcome: 'skipped', reasked: [{ requestId: 'q0a', sessionId: 's0a', error: RAG }] })]);
    expect((await finalizeRun(ctx.store, 'lo', { outDir: ctx.store.runDir('lo'), cancelled: true })).summary.sessionsLeftOpen).toBeUndefined();
  });
});
