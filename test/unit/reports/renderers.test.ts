import { describe, expect, it } from 'vitest';
import type { AssertionResult } from '../../../src/domain/grade';
import { renderHtml } from '../../../src/render/html';
import { REPORT_SCRIPT } from '../../../src/render/htmlAssets';
import { renderJUnit } from '../../../src/render/junit';
import { renderMarkdown } from '../../../src/render/markdown';
import { summarize } from '../../../src/analysis/summary';
import type { Outcome, RowResult, RunSummary } from '../../../src/domain/results';
import { collect, iterate, meta, row } from './fixtures';
import { checkWellFormedXml } from './xmlCheck';

const EVIL = '</system-out><script>alert("x")</script> ]]> & \u0000\u001b ```` | *bold*';

const rows: RowResult[] = [
  row(0, { tags: ['billing'] }),
  row(1, {
    outcome: 'failed',
    tags: ['billing'],
    answer: EVIL,
    expected: 'Refunds take <5> days',
    assertions: [{ type: 'contains', pass: false, score: 0, reason: 'missing "5 days" <b>' }, { type: 'min-confidence', pass: true, score: 1, reason: 'ok' }],
  }),
  row(2, { outcome: 'error', errorType: 'InternalServerError', error: 'HTTP 500: <boom> & "bad"', answer: undefined }),
  row(3, { outcome: 'timed_out', answer: undefined }),
  row(4, { outcome: 'skipped', error: 'conversation aborted' }),
  row(5, { outcome: 'answered', question: 'Why <script>?\nline two' }),
  row(6, { outcome: 'failed', assertions: [{ type: 'regex', pass: false, score: 0, reason: 'no match' }] }),
];

async function summaryFor(list: RowResult[], regressed: string[] = []): Promise<RunSummary> {
  const outcomes = new Map<string, Outcome>(list.map((r) => [r.id, regressed.includes(r.id) ? 'passed' : r.outcome]));
  return summarize(meta(), iterate(list), { runId: 'base', passRate: 1, outcomes }, { finishedAt: '2025-01-01T00:05:00.000Z' });
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  return (await collect(chunks)).join('');
}

describe('renderJUnit', () => {
  it('writes well-formed XML with one test case per row', async () => {
    const xml = await text(renderJUnit(await summaryFor(rows), iterate(rows)));
    const names = checkWellFormedXml(xml);
    expect(names.filter((n) => n === 'testsuite')).toHaveLength(1);
    expect(names.filter((n) => n === 'testcase')).toHaveLength(rows.length);
    expect(names.filter((n) => n === 'failure')).toHaveLength(2);
    expect(names.filter((n) => n === 'error')).toHaveLength(2);
    expect(names.filter((n) => n === 'skipped')).toHaveLength(1);
    expect(xml).toContain('<testsuite name="demo.csv" tests="7" failures="2" errors="2" skipped="1" time="300.000"');
    expect(xml).toContain('classname="billing"');
    expect(xml).toContain('classname="demo.csv"');
    expect(xml).toContain('<failure message="contains: missing &quot;5 days&quot; &lt;b&gt;" type="contains">');
    expect(xml).toContain('<error message="HTTP 500: &lt;boom&gt; &amp; &quot;bad&quot;" type="InternalServerError">');
    expect(xml).toContain('type="TimedOut"');
    expect(xml).toContain('name="r5: Why &lt;script&gt;? line two"');
    expect(xml).toContain('&lt;/system-out&gt;&lt;script&gt;');
    expect(xml).not.toContain('\u0000');
  });

  it('is checked by a checker that does reject broken XML', () => {
    expect(() => checkWellFormedXml('<a><b></a>')).toThrow(/mismatched/);
    expect(() => checkWellFormedXml('<a>x & y</a>')).toThrow(/bare &/);
    expect(() => checkWellFormedXml('<a>1 < 2</a>')).toThrow(/stray </);
    expect(() => checkWellFormedXml('<a>\u0001</a>')).toThrow(/invalid XML character/);
  });
});

describe('renderHtml', () => {
  it('ships a script that parses', () => {
    expect(() => new Function(REPORT_SCRIPT)).not.toThrow();
  });

  it('is self-contained and escapes every piece of run data', async () => {
    const html = await text(renderHtml(await summaryFor(rows, ['r1']), iterate(rows)));
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain('&lt;/system-out&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Why &lt;script&gt;?');
    expect(html).not.toMatch(/\b(?:src|href)=|@import|url\(/);
    expect(html).toContain('content="default-src &#39;none&#39;;');
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html.match(/<tr data-outcome=/g)).toHaveLength(rows.length);
    expect(html).toContain('<tr data-outcome="failed" data-regressed class="regressed">');
    expect(html).toContain('No significant change against base');
    expect(html).toMatch(/Pass rate by tag.*billing/s);
  });

  it('caps the table but keeps listing rows that did not pass', async () => {
    const many = Array.from({ length: 50 }, (_, i) => row(i, { outcome: i % 10 === 9 ? 'failed' : 'passed' }));
    const html = await text(renderHtml(await summaryFor(many), iterate(many), { maxRows: 10, maxProblemRows: 13 }));
    const listed = [...html.matchAll(/<tr data-outcome="(\w+)"/g)].map((m) => m[1]);
    expect(listed).toHaveLength(13);
    expect(listed.slice(10)).toEqual(['failed', 'failed', 'failed']);
    expect(html).toContain('Listing 13 of 50 rows');
  });
});

describe('renderMarkdown', () => {
  it('puts regressions first, then failures and errors, with escaped text', async () => {
    const summary = { ...(await summaryFor(rows, ['r1'])), gate: { verdict: 'failed' as const, passed: false, reasons: ['pass rate 40.0% is below 90.0%'], warnings: [] } };
    const md = await renderMarkdown(summary, iterate(rows));
    const order = ['## Verdict', '## Baseline', '## Regressions (passed in the baseline, fail now) (1)', '### Row r1', '## Failures (1)', '### Row r6', '## Errors and time-outs (2)', '## By tag'].map((h) => md.indexOf(h));
    expect(order.every((pos, i) => pos >= 0 && (i === 0 || pos > (order[i - 1] ?? 0)))).toBe(true);
    expect(md).toContain('**Quality gate: FAILED** ❌');
    expect(md).toContain('`````text\n</system-out><script>');
    // Every rule a row was graded by is shown, the ones it passed too.
    expect(md).toContain('- ❌ contains: missing "5 days" &lt;b&gt;');
    expect(md).toContain('- ✅ min-confidence: ok');
    expect(md).toContain('**Error:** InternalServerError: HTTP 500: &lt;boom&gt; &amp; "bad"');
    expect(md).toContain('**Error:** TimedOut: no answer before the time-out');
    expect(md).toContain('| Pass rate | **33.3%** (1 / 3 graded; uncertain rows, errors and time-outs are not graded) |');
  });

  it('caps the rows listed with a "… N more" line', async () => {
    const many = Array.from({ length: 30 }, (_, i) => row(i, { outcome: 'failed', answer: 'y'.repeat(5000) }));
    const md = await renderMarkdown(await summaryFor(many), iterate(many), { maxRows: 5, maxText: 100 });
    expect(md.match(/^### Row/gm)).toHaveLength(5);
    expect(md).toContain('… 25 more rows not shown');
    expect(md).toContain('… [+4900 chars]');
  });
});

describe('every verdict, in every renderer', () => {
  const gates = {
    passed: { verdict: 'passed', passed: true, reasons: [], warnings: [] },
    failed: { verdict: 'failed', passed: false, reasons: ['43 of 66 rows errored or timed out'], warnings: [] },
    cancelled: { verdict: 'cancelled', passed: false, reasons: ['the run was cancelled: 9 rows were skipped (no answer: not sent, or abandoned by a cancel)'], warnings: [] },
    no_threshold: { verdict: 'no_threshold', passed: true, reasons: [], warnings: ['no quality threshold set'] },
  } as const;
  const settings = { maxErrorRate: 0.05, allowSideEffectFailures: true, failUnder: 0.85, baseline: 'latest' };

  it.each(Object.entries(gates))('%s', async (verdict, gate) => {
    const summary: RunSummary = { ...(await summaryFor(rows)), gate: { ...gate, reasons: [...gate.reasons], warnings: [...gate.warnings] }, gateSettings: settings, cancelled: verdict === 'cancelled' };
    const label = { passed: 'PASSED', failed: 'FAILED', cancelled: 'CANCELLED', no_threshold: 'no quality threshold set' }[verdict];
    const md = await renderMarkdown(summary, iterate(rows));
    const html = await text(renderHtml(summary, iterate(rows)));
    const xml = await text(renderJUnit(summary, iterate(rows)));
    expect(md).toContain(`**Quality gate: ${label}**`);
    expect(html).toContain(`Quality gate: ${label}`);
    expect(xml).toContain(`<testcase classname="sitechat.gate" name="quality gate: ${label}">`);
    for (const reason of gate.reasons) for (const out of [md, html, xml]) expect(out).toContain(reason);
    // The thresholds applied are shown.
    expect(md).toContain('- pass rate: at least 85.0% of graded rows');
    expect(md).toContain('- errors and time-outs: at most 5.0% of rows (--max-error-rate)');
    expect(html).toContain('lost feedback / unclosed sessions: allowed (--allow-side-effect-failures)');
    const names = checkWellFormedXml(xml);
    expect(names.filter((n) => n === 'testcase')).toHaveLength(rows.length + 1);
    if (verdict === 'failed') expect(xml).toContain('<failure message="43 of 66 rows errored or timed out" type="QualityGateFailed">');
    if (verdict === 'cancelled') expect(xml).toContain('type="RunCancelled"');
    if (verdict !== 'passed') expect(`${md}${html}${xml}`).not.toContain('PASSED');
  });
});

describe('baseline detail', () => {
  it('marks regressions in JUnit, and shows per-tag change and the runs passed over', async () => {
    const summary = await summaryFor(rows, ['r1']);
    summary.baselineSelection = {
      requested: 'latest',
      chosen: { runId: 'base', model: null, datasetSha256: 'abc', startedAt: null, reason: 'newest finished run of the same dataset' },
      skipped: [{ runId: 'newer', reason: 'another model (model gpt-3.5-mini-sim; this run uses the site default model)' }],
      skippedMore: 3,
      warnings: [],
    };
    summary.baseline = { ...summary.baseline!, byTag: { billing: { total: 2, passed: 2, failed: 0, graded: 2 } } };
    const xml = await text(renderJUnit(summary, iterate(rows)));
    expect(xml).toContain('<failure message="regressed (passed in base): contains: missing &quot;5 days&quot; &lt;b&gt;" type="regression">');
    const md = await renderMarkdown(summary, iterate(rows));
    expect(md).toContain('Compared with **base**: newest finished run of the same dataset.');
    expect(md).toContain('Runs passed over (4), newest first:\n\n- newer: another model (model gpt-3.5-mini-sim; this run uses the site default model)\n- … 3 more runs');
    expect(md).toContain('| billing | 2 | 1 | 1 | 50.0% | 100.0% | -50.0 pts |');
    const html = await text(renderHtml(summary, iterate(rows)));
    expect(html).toContain('<td class="down">-50.0 pts</td>');
    expect(html).toContain('Runs passed over (4), newest first');
  });
});

describe('uncertain rows in every report', () => {
  const unsure: RowResult = row(0, {
    outcome: 'uncertain',
    expected: 'Underwater',
    answer: 'He explored the deep sea.',
    requestId: 'req-0',
    sessionId: 'ses-0',
    assertions: [{ type: 'reference', pass: false, uncertain: true, score: 0, reason: 'uncertain: answer has 0 of 1 content words' }],
    decision: { verdict: 'uncertain', by: 'graders', reason: 'reference: uncertain: answer has 0 of 1 content words; no judge configured to settle it' },
  });
  const settled: RowResult = row(1, {
    outcome: 'passed',
    assertions: [
      { type: 'reference', pass: false, uncertain: true, score: 0, reason: 'uncertain: …' },
      {
        type: 'llm-correctness', pass: true, escalated: true, score: 1, reason: 'escalated: judge m: pass — same meaning',
        judge: { model: 'm', verdict: 'pass', reason: 'same meaning', tokens: 120, cached: false },
      },
    ],
    decision: { verdict: 'pass', by: 'judge', reason: 'same meaning' },
  });
  const list = [unsure, settled, row(2, { outcome: 'failed' })];

  it('counts them apart from the graded rows and shows them as needing review, with the escalation cost', async () => {
    const s = await summarize(meta(), iterate(list), undefined, { finishedAt: '2025-01-01T00:05:00.000Z' });
    expect(s).toMatchObject({ total: 3, passed: 1, failed: 1, uncertain: 1, graded: 2, passRate: 0.5 });
    expect(s.escalated).toEqual({ rows: 1, passed: 1, failed: 0, unsettled: 0, calls: 1, cached: 0, tokens: 120 });
    expect(s.judge).toEqual({ calls: 1, cached: 0, tokens: 120 });

    const md = await renderMarkdown(s, iterate(list));
    expect(md).toContain('1 passed, 1 failed, 1 uncertain (needs review)');
    expect(md).toContain('## Needs review (uncertain: the graders could not decide, nothing settled the grade) (1)');
    expect(md).toContain('- ❔ reference: uncertain: answer has 0 of 1 content words');
    expect(md).toContain('| Escalated to the judge | 1 uncertain row: 1 passed, 0 failed; 1 call, 0 cached, 120 tokens |');

    const xml = await text(renderJUnit(s, iterate(list)));
    checkWellFormedXml(xml);
    expect(xml).toContain('skipped="1"');
    expect(xml).toContain('<skipped message="uncertain, needs review: reference: uncertain: answer has 0 of 1 content words; no judge configured to settle it"/>');

    const html = await text(renderHtml(s, iterate(list)));
    expect(html).toContain('<b>1</b>uncertain (needs review)');
    expect(html).toContain('<option>uncertain</option>');
    expect(html).toContain('<td class="o-uncertain">uncertain</td>');
    expect(html).toContain('escalated to the judge');
  });
});

describe('renderJUnit with --repeat and --confirm', () => {
  const fail: AssertionResult[] = [{ type: 'contains', pass: false, score: 0, reason: 'missing "$9.99"' }];
  /** Three answers each of r0 (2 of 3 pass), r1 (1 of 3 pass, regressed, confirmed twice), r2 (all errored), in store order. */
  const answers: RowResult[] = [
    row(0, { baseId: 'r0', repeat: 1 }),
    row(0, { id: 'r0#r2', baseId: 'r0', repeat: 2, outcome: 'failed', assertions: fail, answer: 'it is free' }),
    row(0, { id: 'r0#r3', baseId: 'r0', repeat: 3 }),
    row(1, { baseId: 'r1', repeat: 1, outcome: 'failed', assertions: fail }),
    row(1, { id: 'r1#c1', baseId: 'r1', confirm: 1, outcome: 'failed', assertions: fail }),
    row(1, { id: 'r1#c2', baseId: 'r1', confirm: 2, outcome: 'failed', assertions: fail }),
    row(1, { id: 'r1#r2', baseId: 'r1', repeat: 2, outcome: 'failed', assertions: fail }),
    row(1, { id: 'r1#r3', baseId: 'r1', repeat: 3 }),
    ...[1, 2, 3].map((r) => row(2, { id: r === 1 ? 'r2' : `r2#r${r}`, baseId: 'r2', repeat: r, outcome: 'error' as Outcome, errorType: 'InternalServerError', error: 'HTTP 500', answer: undefined })),
  ];

  it('one test case per dataset row: k of N in the message, failed when most answers failed, flaky failures of a passing row, no case for a confirming answer', async () => {
    const baseline = { runId: 'base', passRate: 1, outcomes: new Map<string, Outcome>([['r0', 'passed'], ['r1', 'passed'], ['r2', 'passed']]) };
    const summary = await summarize(meta({ rowCount: 9 }), iterate(answers), baseline, { finishedAt: '2025-01-01T00:05:00.000Z' });
    expect(summary.repeats?.n).toBe(3);
    const xml = await text(renderJUnit(summary, () => iterate(answers)));
    const names = checkWellFormedXml(xml);
    expect(names.filter((n) => n === 'testcase')).toHaveLength(3);
    expect(xml).toContain('<testsuite name="demo.csv" tests="3" failures="1" errors="1" skipped="0"');
    expect(xml).toContain('<property name="repeat" value="3"/>');
    expect(xml).toMatch(/<testcase classname="demo.csv" name="r0: Question 0\?" time="[\d.]+">\n {6}<flakyFailure message="r0#r2: contains: missing &quot;\$9.99&quot; \(2 of 3 graded answers passed \(3 asked\)\)" type="contains"\/>/);
    expect(xml).toContain('<failure message="regressed (passed in base): 1 of 3 graded answers passed (3 asked); contains: missing &quot;$9.99&quot;" type="regression">');
    expect(xml).toContain('<error message="no answer graded: HTTP 500" type="InternalServerError">');
    expect(xml).not.toContain('r1#c1');
    expect(xml).toContain('[r0#r2] failed: it is free');
  });

  it('read once (an iterable), the counts are the summary\'s; without repeats a confirming answer is no test case either', async () => {
    const first = [row(0, { outcome: 'failed', assertions: fail }), row(0, { id: 'r0#c1', baseId: 'r0', confirm: 1, outcome: 'failed', assertions: fail }), row(1)];
    const summary = await summaryFor(first, ['r0']);
    const xml = await text(renderJUnit(summary, iterate(first)));
    expect(checkWellFormedXml(xml).filter((n) => n === 'testcase')).toHaveLength(2);
    expect(xml).toContain('tests="2" failures="1"');
    expect(xml).not.toContain('r0#c1');
  });
});
