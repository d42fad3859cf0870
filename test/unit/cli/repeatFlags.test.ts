import { describe, expect, it } from 'vitest';
import { planLine } from '../../../src/cli/commands/run/repeatPlan';
import { resolveRunOptions } from '../../../src/cli/commands/run/runOptions';
import { validateRunFlags } from '../../../src/cli/commands/run/validate';

describe('--repeat and --confirm', () => {
  it('refuses bad values naming the flag, and both on a backfill', async () => {
    const problems = async (kind: 'evaluation' | 'backfill', flags: { repeat?: string; confirm?: string }): Promise<string[]> =>
      (await validateRunFlags(kind, { worker: true, site: 'demo-site', ...flags }, {})).problems;
    expect(await problems('evaluation', { repeat: '3', confirm: '2' })).toEqual([]);
    expect(await problems('evaluation', { repeat: '0' })).toEqual(['--repeat: must be a whole number >= 1, got "0"']);
    expect(await problems('evaluation', { repeat: '21' })).toEqual(['--repeat: must be at most 20, got 21']);
    expect(await problems('evaluation', { confirm: 'two' })).toEqual(['--confirm: must be a whole number from 0 (off) to 5, got "two"']);
    expect(await problems('backfill', { repeat: '2', confirm: '1' })).toEqual([
      '--confirm: a backfill has no gate: --confirm is for evaluation runs',
      '--repeat: a backfill records one answer per row: --repeat is for evaluation runs',
    ]);
  });

  it('puts repeat and confirm in the options only above their off value; a schedule default applies unless a flag says otherwise', async () => {
    const of = async (flags: { repeat?: string; confirm?: string }, confirm?: number) =>
      (await resolveRunOptions({ worker: true, site: 'demo-site', ...flags }, { confirm })).options;
    expect(await of({})).not.toHaveProperty('repeat');
    expect(await of({})).not.toHaveProperty('confirm');
    expect(await of({ repeat: '1', confirm: '0' })).not.toHaveProperty('confirm');
    expect(await of({ repeat: '3', confirm: '2' })).toMatchObject({ repeat: 3, confirm: 2 });
    expect(await of({}, 2)).toMatchObject({ confirm: 2 });
    expect(await of({ confirm: '0' }, 2)).not.toHaveProperty('confirm');
  });

  it('the start line shows N × the questions', () => {
    expect(planLine({ rows: 66, conversations: 59 }, 1)).toBe('66 rows, 59 conversations');
    expect(planLine({ rows: 66, conversations: 59 }, 3)).toBe('66 rows, 59 conversations, each asked 3 times in fresh sessions: 198 questions, about 3 × the time of one pass');
  });
});
