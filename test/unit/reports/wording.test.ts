import { describe, expect, it } from 'vitest';
import { summaryTable } from '../../../src/cli/follow/summaryTable';
import { evaluateGate } from '../../../src/analysis/gate';
import { renderHtml } from '../../../src/render/html';
import { renderMarkdown } from '../../../src/render/markdown';
import { plural } from '../../../src/shared/plural';
import { summarize } from '../../../src/analysis/summary';
import type { RowResult, RunSummary } from '../../../src/domain/results';
import { collect, iterate, meta, row } from './fixtures';

describe('plural', () => {
  it('says one in the singular, every other count in the plural', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(2, 'row')).toBe('2 rows');
    expect(plural(1, 'pass', 'passes')).toBe('1 pass');
    expect(plural(3, 'pass', 'passes')).toBe('3 passes');
  });
});

describe('counts of one in the reports and the terminal', () => {
  const labelled: RowResult = row(1, { outcome: 'failed', decision: { verdict: 'fail', by: 'label', reason: 'wrong plan' } });
  const summaryOf = async (rows: RowResult[], extra: Partial<RunSummary> = {}): Promise<RunSummary> =>
    ({ ...(await summarize(meta({ dataset: '/tmp/newcomer/datasets/demo.csv' }), iterate(rows))), ...extra });

  it('"1 row settled", said once after its label', async () => {
    const s = await summaryOf([row(0), labelled]);
    const text = summaryTable(s);
    expect(text).toMatch(/^reviewed {3}1 row settled by labels$/m);
    expect(text).not.toMatch(/reviewed\s+reviewed/);
    expect(await renderMarkdown(s, iterate([row(0), labelled]))).toContain('| Reviewed | 1 row settled by labels |');
  });

  it('"1 row regressed", "1 row was skipped"', async () => {
    const base = await summaryOf([row(0), row(1)]);
    const regressed = {
      ...base, baseline: {
        runId: 'b', passRate: 1, delta: -0.5, compared: 2, regressed: ['r1'], fixed: [],
        mcnemar: { b: 1, c: 0, pValue: 1, significant: false, alpha: 0.05 },
      },
    };
    expect(evaluateGate(regressed, { baselineGiven: true }).warnings[0]).toMatch(/^1 row regressed against b/);
    expect(evaluateGate({ ...base, skipped: 1 }, { baselineGiven: false }).reasons).toContain('1 row was skipped (no answer: not sent, or abandoned by a cancel)');
  });

  it('titles name the dataset\'s file; its path stays in the details', async () => {
    const s = await summaryOf([row(0)]);
    const md = await renderMarkdown(s, iterate([row(0)]));
    expect(md.split('\n')[0]).toBe('# Evaluation report: demo.csv');
    expect(md).toContain('| Dataset | /tmp/newcomer/datasets/demo.csv');
    const html = (await collect(renderHtml(s, iterate([row(0)])))).join('');
    expect(html).toContain('<title>Evaluation report: demo.csv</title>');
    expect(html).toMatch(/<p class="meta">[^<]*dataset \/tmp\/newcomer\/datasets\/demo\.csv/);
  });
});
