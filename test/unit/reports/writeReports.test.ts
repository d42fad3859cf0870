import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBaseline } from '../../../src/analysis/baseline';
import { ReportFile, StoreFile } from '../../../src/store/files';
import { finalizeRun, writeReports } from '../../../src/render/writeReports';
import type { RowResult, RunSummary } from '../../../src/domain/results';
import { meta, row, useTempStore } from './fixtures';
import { checkWellFormedXml } from './xmlCheck';

describe('writeReports / finalizeRun', () => {
  const ctx = useTempStore();

  it('writes all five files beside the raw log, deduplicated and in dataset order', async () => {
    await ctx.store.init('run-1', meta({ rowCount: 3 }));
    await ctx.store.append('run-1', [row(2), row(0, { outcome: 'failed' })]);
    await ctx.store.append('run-1', [row(0), row(1)]); // retried row 0 now passes
    const { summary, gate, paths } = await finalizeRun(ctx.store, 'run-1', { outDir: ctx.store.runDir('run-1'), finishedAt: '2025-01-01T00:00:10.000Z', gate: { failUnder: 0.9 } });

    expect(Object.keys(paths).sort()).toEqual(['html', 'junit', 'markdown', 'results', 'summary']);
    const lines = (await readFile(paths.results, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as RowResult).id)).toEqual(['r0', 'r1', 'r2']);
    expect((JSON.parse(lines[0] ?? '') as RowResult).outcome).toBe('passed');
    expect(gate).toEqual({ verdict: 'passed', passed: true, reasons: [], warnings: [] });
    expect(summary.gateSettings).toEqual({ failUnder: 0.9, maxErrorRate: 0, maxUncertainRate: 0.1, allowSideEffectFailures: false });
    expect(JSON.parse(await readFile(paths.summary, 'utf8'))).toEqual(summary);
    expect(summary).toMatchObject({ total: 3, passed: 3, missing: 0, durationMs: 10_000, gate });
    expect((await ctx.store.getMeta('run-1'))?.finishedAt).toBe('2025-01-01T00:00:10.000Z');
    checkWellFormedXml(await readFile(paths.junit, 'utf8'));
    const md = await readFile(paths.markdown, 'utf8');
    expect(md).toContain('**Quality gate: PASSED** ✅');
    expect(md).toContain('- pass rate: at least 90.0% of graded rows');
    expect(await readFile(paths.html, 'utf8')).toContain('</html>');
    expect(await readFile(join(ctx.store.runDir('run-1'), StoreFile.log), 'utf8')).toMatch(/^(.*\n){4}$/);
  });

  it('compares with a baseline and fails the gate on a significant regression', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i);
    await ctx.store.init('base', meta({ runId: 'base' }));
    await ctx.store.append('base', ids.map((i) => row(i, { outcome: i < 10 ? 'passed' : 'failed' })));
    await finalizeRun(ctx.store, 'base', { outDir: ctx.store.runDir('base') });
    await ctx.store.init('now', meta({ runId: 'now' }));
    await ctx.store.append('now', ids.map((i) => row(i, { outcome: i < 10 ? 'failed' : 'passed' })));

    const baseline = await loadBaseline(ctx.store.runDir('base'));
    const outDir = join(ctx.dir, 'out');
    const { summary, gate } = await finalizeRun(ctx.store, 'now', { outDir, baseline });
    expect(summary.baseline).toMatchObject({ regressed: ids.slice(0, 10).map((i) => `r${i}`), fixed: ['r10', 'r11'], mcnemar: { b: 10, c: 2, significant: true } });
    expect(gate?.verdict).toBe('failed');
    const md = await readFile(join(outDir, ReportFile.markdown), 'utf8');
    expect(md).toContain('## Regressions (passed in the baseline, fail now) (10)');
    expect(md).toContain('## Fixed (failed in the baseline, pass now) (2)');
    // The baseline's answer beside today's, for regressed and fixed rows.
    expect(md).toContain('### Row r0 · failed (was passed in base)');
    expect(md).toContain('**Baseline answer (base, passed):**');
    expect(md).toContain('### Row r10 · passed (was failed in base)');
    expect(md).toContain('Significant regression against base');
  });

  it('renders a run that is not finished yet, and refuses an unknown run', async () => {
    await ctx.store.init('live', meta({ runId: 'live' }));
    await ctx.store.append('live', [row(0)]);
    const { paths } = await writeReports(ctx.store, 'live', join(ctx.dir, 'live-out'));
    expect((JSON.parse(await readFile(paths.summary, 'utf8')) as RunSummary).gate).toBeUndefined();
    await expect(writeReports(ctx.store, 'ghost', ctx.dir)).rejects.toThrow('reports: run ghost not found in the results store');
  });
});

describe('finalizeRun: cancelled runs, side effects, follow-up turns, the CI step summary', () => {
  const ctx = useTempStore();

  it('lists the sessions the API has but the run could not close: a question accepted, no answer recorded', async () => {
    await ctx.store.init('open', meta({ runId: 'open', rowCount: 3 }));
    // r0 answered in s0 (closed by the run); r1 accepted in s1 and abandoned by a cancel; r2 never sent.
    await ctx.store.recordSubmission('open', { rowId: 'r0', sends: 1, requestId: 'q0', sessionId: 's0', submittedAtMs: 1 });
    await ctx.store.recordSubmission('open', { rowId: 'r1', sends: 1, requestId: 'q1', sessionId: 's1', submittedAtMs: 1 });
    await ctx.store.append('open', [
      row(0, { requestId: 'q0', sessionId: 's0' }),
      row(1, { outcome: 'skipped', error: 'run cancelled while waiting for the answer (it may have been asked)' }),
      row(2, { outcome: 'skipped', error: 'run cancelled before this row was sent' }),
    ]);
    const { summary, paths } = await finalizeRun(ctx.store, 'open', { outDir: ctx.store.runDir('open'), cancelled: true });
    expect(summary.sessionsLeftOpen).toEqual({ count: 1, sessionIds: ['s1'] });
    expect(await readFile(paths.markdown, 'utf8')).toContain('| Sessions left open | 1 (the API accepted a question in them');

    // Sessions meant to stay open (a backfill with --keep-sessions) are not listed.
    await ctx.store.init('kept', meta({ runId: 'kept', rowCount: 1, options: { closeSessions: false } }));
    await ctx.store.recordSubmission('kept', { rowId: 'r0', sends: 1, requestId: 'q0', sessionId: 's0', submittedAtMs: 1 });
    await ctx.store.append('kept', [row(0, { outcome: 'skipped' })]);
    expect((await finalizeRun(ctx.store, 'kept', { outDir: ctx.store.runDir('kept') })).summary.sessionsLeftOpen).toBeUndefined();
  });

  it('a cancelled run says CANCELLED in every report, never PASSED', async () => {
    await ctx.store.init('c', meta({ runId: 'c', rowCount: 3 }));
    await ctx.store.append('c', [row(0), row(1, { outcome: 'skipped', error: 'run cancelled before this row was sent' }), row(2, { outcome: 'skipped' })]);
    const { summary, paths } = await finalizeRun(ctx.store, 'c', { outDir: ctx.store.runDir('c'), cancelled: true, gate: { failUnder: 0.5 } });
    expect(summary.cancelled).toBe(true);
    expect(summary.gate).toMatchObject({ verdict: 'cancelled', passed: false, reasons: ['the run was cancelled: 2 rows were skipped (no answer: not sent, or abandoned by a cancel)'] });
    const md = await readFile(paths.markdown, 'utf8');
    const html = await readFile(paths.html, 'utf8');
    const junit = await readFile(paths.junit, 'utf8');
    expect(md).toContain('**Quality gate: CANCELLED** ⏹️');
    expect(html).toContain('Quality gate: CANCELLED');
    expect(junit).toContain('<testcase classname="sitechat.gate" name="quality gate: CANCELLED">');
    expect(junit).toContain('type="RunCancelled"');
    for (const text of [md, html, junit, await readFile(paths.summary, 'utf8')]) expect(text).not.toMatch(/PASSED/);
  });

  it('lists lost feedback and unclosed sessions with their reasons, and fails the gate for them', async () => {
    await ctx.store.init('s', meta({ runId: 's' }));
    await ctx.store.append('s', [row(0, { feedback: 'good' }), row(1, { feedback: 'failed', requestId: 'req-1', feedbackError: '500 internal error' })]);
    await ctx.store.recordSessionFailures('s', [{ sessionId: 'sess-9', error: '429 rate limited' }]);
    const { summary, paths } = await finalizeRun(ctx.store, 's', { outDir: ctx.store.runDir('s'), sessionsClosed: 1, sessionsCloseFailed: 1, gate: { failUnder: 0.5 } });
    expect(summary.sessions).toEqual({ opened: 0, closed: 1, closeFailed: 1 });
    expect(summary.feedback.failed).toBe(1);
    expect(summary.gate?.verdict).toBe('failed');
    const md = await readFile(paths.markdown, 'utf8');
    expect(md).toContain('## Feedback not recorded (1)\n\n- row r1 (request req-1): 500 internal error');
    expect(md).toContain('## Sessions left open (1)');
    expect(md).toContain('- session sess-9: 429 rate limited');
    const html = await readFile(paths.html, 'utf8');
    expect(html).toContain('Sessions left open (1)');
    expect(html).toContain('429 rate limited');
  });

  it('shows the earlier turns of a follow-up row and the rules it was graded by', async () => {
    await ctx.store.init('t', meta({ runId: 't' }));
    await ctx.store.append('t', [
      row(0, { conversation: 'c1', turn: 1, question: 'Which plans are there?', answer: 'Personal and Family.' }),
      row(1, {
        conversation: 'c1', turn: 2, question: 'How much is the first one?', outcome: 'failed', answer: 'It is free.',
        assertions: [{ type: 'contains-all', pass: false, score: 0, reason: 'missing "$9.99"', rule: 'must include all of "$9.99" (ignoring case)' }],
      }),
    ]);
    const { paths } = await finalizeRun(ctx.store, 't', { outDir: ctx.store.runDir('t') });
    const md = await readFile(paths.markdown, 'utf8');
    expect(md).toContain('**Earlier turns of this conversation:**\n\n> **turn 1** · passed · Q: Which plans are there?\n> A: Personal and Family.');
    expect(md).toContain('- ❌ contains-all (rule: must include all of "$9.99" (ignoring case)): missing "$9.99"');
    expect(await readFile(paths.html, 'utf8')).toContain('Earlier turns of this conversation (1)');
  });

  it('appends the headline and verdict to the CI step summary file', async () => {
    await ctx.store.init('g', meta({ runId: 'g' }));
    await ctx.store.append('g', [row(0), row(1, { outcome: 'failed' })]);
    const file = join(ctx.dir, 'step-summary.md');
    await writeFile(file, '# earlier step\n');
    await finalizeRun(ctx.store, 'g', { outDir: ctx.store.runDir('g'), gate: { failUnder: 0.9 }, stepSummaryFile: file });
    const text = await readFile(file, 'utf8');
    // The title names the dataset's file; its path is in the headline's Dataset row.
    expect(text.startsWith('# earlier step\n## Site Chat evaluation: demo.csv\n')).toBe(true);
    expect(text).toContain('| Dataset | datasets/demo.csv');
    expect(text).toContain('**Quality gate: FAILED** ❌');
    expect(text).toContain('pass rate 50.0% (1 / 2 graded) is below 90.0% (--fail-under)');
    expect(text).not.toContain('### Row');
  });
});
