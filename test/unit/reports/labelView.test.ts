/**
 * A row a person's label settled, in every report: "decided by a person" with who, when and the note, beside what the
 * graders said (named as theirs); junit's failure says "failed by a label", a label's pass names the label.
 */
import { describe, expect, it } from 'vitest';
import type { AssertionResult } from '../../../src/domain/grade';
import { labelledResult } from '../../../src/labels/apply';
import { collectReportContext } from '../../../src/analysis/context';
import { renderHtml } from '../../../src/render/html';
import { renderJUnit } from '../../../src/render/junit';
import { renderMarkdown } from '../../../src/render/markdown';
import { summarize } from '../../../src/analysis/summary';
import type { RowResult, RunSummary } from '../../../src/domain/results';
import { settledByLabel } from '../../../src/review/save';
import { collect, iterate, meta, row, useTempStore } from './fixtures';
import { checkWellFormedXml } from './xmlCheck';

const AT = '2026-11-28T10:04:31.250Z';
const PASSING: AssertionResult[] = [{ type: 'contains', pass: true, score: 1, reason: 'contains "5 GB"', rule: '5 GB' }];
const FAILING: AssertionResult[] = [{ type: 'reference', pass: false, score: 0.1, reason: 'the answer contradicts the reference' }];

/** A row the graders passed, failed by a person on the review page. */
const failedByPerson = settledByLabel(
  row(0, { answer: 'You get 5 GB.', assertions: PASSING, decision: { verdict: 'pass', by: 'graders', reason: 'its assertion passed' } }),
  { key: 'k0', verdict: 'fail', by: 'ana', at: AT, note: 'the household is not mentioned <b>' },
);
/** A row the graders failed, passed by a person on the review page. */
const passedByPerson = settledByLabel(
  row(1, { outcome: 'failed', assertions: FAILING, decision: { verdict: 'fail', by: 'graders', reason: 'reference: the answer contradicts the reference' } }),
  { key: 'k1', verdict: 'pass', by: 'ben', at: AT },
);
/** A row a later run settled by its label before grading (labels first): no grader ran. */
const labelledAtRunTime = labelledResult(row(2, { outcome: 'answered' }), { key: 'k2', verdict: 'fail', by: 'cy', at: AT, note: 'outdated price' });
/** A row settled before who, when and the note were kept apart. */
const labelledBefore = row(3, { outcome: 'failed', decision: { verdict: 'fail', by: 'label', reason: 'label by dee: wrong plan' } });
const graded = row(4, { assertions: PASSING, decision: { verdict: 'pass', by: 'graders', reason: 'its assertion passed' } });

const ROWS = [failedByPerson, passedByPerson, labelledAtRunTime, labelledBefore, graded];

async function summaryOf(rows: RowResult[], regressed: string[] = []): Promise<RunSummary> {
  const outcomes = new Map(rows.map((r) => [r.id, regressed.includes(r.id) ? ('passed' as const) : r.outcome]));
  return summarize(meta(), iterate(rows), { runId: 'base-run', passRate: 1, outcomes }, { finishedAt: '2026-11-28T10:10:00.000Z' });
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  return (await collect(chunks)).join('');
}

/** The markdown of one row's detail: from its heading to the next. */
function mdRow(md: string, id: string): string {
  const start = md.indexOf(`### Row ${id} `);
  expect(start, `row ${id} in report.md`).toBeGreaterThanOrEqual(0);
  const end = md.indexOf('\n### ', start + 1);
  return md.slice(start, end === -1 ? undefined : end);
}

/** The XML of one row's test case. */
function testCase(xml: string, id: string): string {
  const start = xml.indexOf(`<testcase classname="demo.csv" name="${id}: `);
  expect(start, `test case ${id}`).toBeGreaterThanOrEqual(0);
  return xml.slice(start, xml.indexOf('</testcase>', start) + '</testcase>'.length);
}

describe('the settled decision keeps the person and the graders apart', () => {
  it('a review label keeps who, when, the note and what the graders had decided; a run-time label ran no grader', () => {
    expect(failedByPerson.decision).toEqual({
      verdict: 'fail', by: 'label', reason: 'label by ana: the household is not mentioned <b>', was: 'passed',
      label: { by: 'ana', at: AT, note: 'the household is not mentioned <b>' }, graders: { verdict: 'pass', by: 'graders', reason: 'its assertion passed' },
    });
    expect(failedByPerson.assertions).toEqual(PASSING);
    // Labelled again: the graders' decision stays the graders', not the first label's.
    const again = settledByLabel(failedByPerson, { key: 'k0', verdict: 'pass', by: 'ana', at: '2026-11-29T08:00:00.000Z' });
    expect(again.decision).toMatchObject({ verdict: 'pass', was: 'passed', label: { by: 'ana', at: '2026-11-29T08:00:00.000Z' }, graders: { verdict: 'pass', by: 'graders' } });
    expect(labelledAtRunTime.decision).toEqual({ verdict: 'fail', by: 'label', reason: 'label by cy: outdated price', label: { by: 'cy', at: AT, note: 'outdated price' } });
  });
});

describe('report.md', () => {
  it('shows "decided by a person" with who, when and the note, then what the graders said, for every labelled row', async () => {
    const md = await renderMarkdown(await summaryOf(ROWS), iterate(ROWS));
    const failed = mdRow(md, 'r0');
    expect(failed).toMatch(/^### Row r0 · failed · decided by a person · line 2/);
    expect(failed).toContain('**Decided by a person:** fail · by ana · 2026-11-28 10:04 UTC · note: the household is not mentioned &lt;b&gt;');
    expect(failed).toContain('**Graders said pass (overruled by the person)**\n\n- ✅ contains (rule: 5 GB): contains "5 GB"');
    expect(failed).not.toContain('Graded by');
    // Passed by a person against failing graders: a section of its own, so the label is never out of the report.
    expect(md).toContain('## Passed by a person (a label settled them; what the graders said is beside each) (1)');
    const passed = mdRow(md, 'r1');
    expect(passed).toContain('**Decided by a person:** pass · by ben · 2026-11-28 10:04 UTC · no note');
    expect(passed).toContain('**Graders said fail (overruled by the person)**\n\n- ❌ reference: the answer contradicts the reference');
    expect(mdRow(md, 'r2')).toContain('**Decided by a person:** fail · by cy · 2026-11-28 10:04 UTC · note: outdated price\n\n**Graders not run: the label settled the row before them**');
    expect(mdRow(md, 'r3')).toContain('**Decided by a person:** fail (label by dee: wrong plan)');
    // A row its graders settled is shown as before, and no passed row of theirs is listed.
    expect(md).not.toContain('### Row r4 ');
  });
});

describe('report.html', () => {
  const ctx = useTempStore();

  it('shows the person\'s decision beside the graders\' view, in the row cards and in the table', async () => {
    const runMeta = meta();
    await ctx.store.init(runMeta.runId, runMeta);
    await ctx.store.append(runMeta.runId, ROWS);
    const summary = await summaryOf(ROWS, ['r0']);
    const context = await collectReportContext(ctx.store, runMeta.runId, summary);
    const html = await text(renderHtml(summary, iterate(ROWS), { context }));
    const card = html.slice(html.indexOf('<article class="review regressed" id="row-r0">'), html.indexOf('</article>', html.indexOf('id="row-r0"')));
    expect(card).toContain('<h4>Now · <span class="o-failed">failed</span> · decided by a person</h4>');
    expect(card).toContain('<div class="person fail"><b>Decided by a person: fail</b> <span class="who">by ana · 2026-11-28 10:04 UTC</span><p class="person-note">the household is not mentioned &lt;b&gt;</p></div>');
    expect(card).toContain('<p class="graders-said">Graders said pass (overruled by the person)</p><ul class="grades"><li class="ok"><b>✓ contains</b>');
    expect(html).toContain('<h2 id="passed-by-person">Passed by a person (1)');
    expect(html).toContain('<b>Decided by a person: pass</b> <span class="who">by ben · 2026-11-28 10:04 UTC</span><p class="note">no note</p>');
    expect(html).toContain('<p class="graders-said">Graders not run: the label settled the row before them</p>');
    // The table: the outcome says who decided, the reasons cell the person first, then the graders.
    expect(html).toContain('<td class="o-failed">failed (decided by a person) (regressed)</td>');
    expect(html).toContain('decided by a person: fail · by ana · 2026-11-28 10:04 UTC · note: the household is not mentioned &lt;b&gt;\ngraders said pass (overruled by the person)\n✓ contains [5 GB]: contains &quot;5 GB&quot;');
    expect(html).toContain('<td class="o-passed">passed</td>');
  });
});

describe('junit.xml', () => {
  it('a row failed by a label fails with "failed by a label: note" and who, not "assertions failed"; a label\'s pass names the label', async () => {
    const xml = await text(renderJUnit(await summaryOf(ROWS), iterate(ROWS)));
    checkWellFormedXml(xml);
    const failed = testCase(xml, 'r0');
    expect(failed).toContain('<failure message="failed by a label: the household is not mentioned &lt;b&gt; (by ana · 2026-11-28 10:04 UTC)" type="label">');
    expect(failed).toContain('decided by a person: fail · by ana');
    expect(failed).toContain('graders said pass (overruled by the person): ');
    expect(failed).not.toContain('assertions failed');
    expect(failed).toContain('<property name="decidedBy" value="label"/>');
    expect(failed).toContain('<property name="label.by" value="ana"/>');
    expect(failed).toContain(`<property name="label.at" value="${AT}"/>`);
    expect(failed).toContain('<property name="label.note" value="the household is not mentioned &lt;b&gt;"/>');

    const passed = testCase(xml, 'r1');
    expect(passed).not.toContain('<failure');
    expect(passed).toContain('<property name="label.verdict" value="pass"/>');
    expect(passed).toContain('<property name="graders" value="graders said fail (overruled by the person): reference: the answer contradicts the reference"/>');
    expect(passed).toContain('<system-out>decided by a person: pass · by ben · 2026-11-28 10:04 UTC · no note\ngraders said fail (overruled by the person): reference: the answer contradicts the reference\n\nAnswer 1.</system-out>');

    expect(testCase(xml, 'r2')).toContain('<failure message="failed by a label: outdated price (by cy · 2026-11-28 10:04 UTC)" type="label">');
    expect(testCase(xml, 'r2')).toContain('graders not run: the label settled the row before them');
    expect(testCase(xml, 'r3')).toContain('<failure message="failed by a label (label by dee: wrong plan)" type="label">');
    expect(testCase(xml, 'r4')).not.toContain('<properties>');
  });

  it('a regressed row failed by a label says both, and a repeated row\'s failure names the label too', async () => {
    const xml = await text(renderJUnit(await summaryOf(ROWS, ['r0']), iterate(ROWS)));
    expect(testCase(xml, 'r0')).toContain('<failure message="regressed (passed in base-run): failed by a label: the household is not mentioned &lt;b&gt; (by ana · 2026-11-28 10:04 UTC)" type="regression">');

    const answers = [
      { ...failedByPerson, id: 'r0', baseId: 'r0', repeat: 1 },
      { ...failedByPerson, id: 'r0#r2', baseId: 'r0', repeat: 2 },
    ];
    const summary = { ...(await summaryOf(answers)), repeats: { n: 2 } as RunSummary['repeats'] };
    const repeated = await text(renderJUnit(summary, () => iterate(answers)));
    expect(testCase(repeated, 'r0')).toContain('message="0 of 2 graded answers passed (2 asked); failed by a label: the household is not mentioned &lt;b&gt; (by ana · 2026-11-28 10:04 UTC)" type="label"');
  });
});
