/** The review page's words for a row a person settled are the reports' (labelView.ts), computed by the server. */
import { describe, expect, it } from 'vitest';
import { labelledResult } from '../../../src/labels/apply';
import { personItem } from '../../../src/review/person';
import { settledByLabel } from '../../../src/review/save';
import { row } from '../reports/fixtures';

const AT = '2026-11-28T10:04:31.250Z';

describe('personItem', () => {
  it('a row settled on the page: who, when, the note, and the graders it overruled', () => {
    const graded = row(0, { outcome: 'uncertain', assertions: [{ type: 'reference', pass: false, uncertain: true, score: 0.4, reason: 'no evidence either way' }], decision: { verdict: 'uncertain', by: 'graders', reason: 'reference: no evidence either way' } });
    expect(personItem(settledByLabel(graded, { key: 'k', verdict: 'pass', by: 'tester', at: AT, note: 'gives the 5 GB' }))).toEqual({
      verdict: 'pass', head: 'Decided by a person: pass', facts: 'by tester · 2026-11-28 10:04 UTC', note: 'gives the 5 GB',
      graders: 'Graders said uncertain (overruled by the person)', gradersRan: true,
    });
  });

  it('a row a run settled by its label: no grader ran; a row with only a label of its key: the label, against its graders', () => {
    expect(personItem(labelledResult(row(1, { outcome: 'answered' }), { key: 'k', verdict: 'fail', at: AT }))).toMatchObject({
      facts: 'by a person the label does not name · 2026-11-28 10:04 UTC', graders: 'Graders not run: the label settled the row before them', gradersRan: false,
    });
    const passed = row(2, { assertions: [{ type: 'contains', pass: true, score: 1, reason: 'ok' }], decision: { verdict: 'pass', by: 'graders', reason: 'its assertion passed' } });
    expect(personItem(passed)).toBeUndefined();
    expect(personItem(passed, { verdict: 'pass', by: 'ana', at: AT })).toMatchObject({ head: 'Decided by a person: pass', graders: 'Graders said pass (the person agrees)' });
  });
});
