/** An evaluation in which no row has anything to grade is refused before the start, unless asked for. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/cli/logger';
import { preflight } from '../../../src/cli/commands/run/preflight';
import { isGradedRow, ungradedMessage } from '../../../src/cli/commands/run/ungradedCheck';
import type { ValidatedFlags } from '../../../src/cli/commands/run/validate';
import type { RunKind } from '../../../src/domain/run';

describe('isGradedRow', () => {
  it('a row is graded by any assertion column, or by a config assertion that applies to it', () => {
    expect(isGradedRow({})).toBe(false);
    for (const row of [{ expected: 'Paris' }, { must_include: ['x'] }, { include_any: ['x'] }, { must_not_include: ['x'] }, { regex: 'x' }, { min_confidence: 50 }, { rubric: 'polite' }]) {
      expect(isGradedRow(row), JSON.stringify(row)).toBe(true);
    }
    expect(isGradedRow({}, [{ type: 'max-latency', ms: 1000 }])).toBe(true);
    expect(isGradedRow({}, [{ type: 'custom', module: '/g.js' }])).toBe(true);
    // These grade against the row's `expected` or `rubric`: nothing to grade on a row without them.
    expect(isGradedRow({}, [{ type: 'llm-correctness' }, { type: 'f1' }, { type: 'llm-rubric' }])).toBe(false);
    expect(isGradedRow({ rubric: 'polite' }, [{ type: 'llm-rubric' }])).toBe(true);
  });
});

describe('ungradedMessage', () => {
  it('says what would be graded, how to add it, and the ways on (backfill, --allow-ungraded)', () => {
    const lines = ungradedMessage({ dataset: 'q.csv', columns: ['id', 'question', 'notes'], assertions: [] });
    expect(lines[0]).toBe('q.csv: no row has anything to grade, so this evaluation could neither pass nor fail on its answers (its columns: id, question, notes)');
    expect(lines.join('\n')).toContain('`expected`');
    expect(lines.join('\n')).toContain('`must_include`');
    expect(lines.join('\n')).toContain('--config FILE with `assertions:`');
    expect(lines.at(-1)).toBe('to collect answers without grading them, use `sitechat backfill`; to run ungraded anyway, pass --allow-ungraded (config: `allowUngraded: true`)');
  });

  it('names what the config\'s assertions wait for when they apply to no row', () => {
    const lines = ungradedMessage({ dataset: 'q.csv', columns: ['question'], assertions: [{ type: 'f1' }, { type: 'llm-rubric' }], configFile: 'c.yaml' });
    expect(lines).toContain("the config's assertions (c.yaml) grade a row only when it has `expected` or `rubric`, which no row has");
  });
});

describe('preflight of an ungraded dataset', () => {
  const errors: string[] = [];
  const log: Logger = { info: () => undefined, warn: () => undefined, error: (l) => void errors.push(l), debug: () => undefined, out: () => undefined };

  async function check(kind: RunKind, csv: string, flags: Partial<ValidatedFlags> = {}, config?: string): Promise<boolean> {
    errors.length = 0;
    const dir = await mkdtemp(join(tmpdir(), 'ungraded-'));
    const file = join(dir, 'q.csv');
    await writeFile(file, csv);
    if (config !== undefined) await writeFile(join(dir, 'c.yaml'), config);
    const withConfig = config === undefined ? {} : { config: join(dir, 'c.yaml') };
    return (await preflight(kind, file, { worker: true, ...withConfig, ...flags }, log, { SITECHAT_RUNS_DIR: join(dir, 'runs') })) !== undefined;
  }

  it('refuses an evaluation with nothing to grade, and says so', async () => {
    expect(await check('evaluation', 'id,question,notes\nq1,Where?,x\n')).toBe(false);
    expect(errors.join('\n')).toContain('no row has anything to grade');
    expect(errors.at(-1)).toMatch(/q\.csv: nothing to grade; nothing was sent\.$/u);
  });

  it('lets it start with --allow-ungraded or the config\'s allowUngraded, and a backfill always', async () => {
    expect(await check('evaluation', 'question\nWhere?\n', { allowUngraded: true })).toBe(true);
    expect(await check('evaluation', 'question\nWhere?\n', {}, 'allowUngraded: true\n')).toBe(true);
    expect(await check('backfill', 'question\nWhere?\n')).toBe(true);
  });

  it('lets it start when one row, or the config, grades something', async () => {
    expect(await check('evaluation', 'question,expected\nWhere?,\nWho?,Anna\n')).toBe(true);
    expect(await check('evaluation', 'question\nWhere?\n', {}, 'assertions:\n  - { type: max-latency, ms: 30000 }\n')).toBe(true);
    expect(await check('evaluation', 'question\nWhere?\n', {}, 'assertions:\n  - { type: f1 }\n')).toBe(false);
  });

  it('says nothing of grading while the file has problems of its own: a misspelt column is named instead', async () => {
    expect(await check('evaluation', 'question,expeted\nWhere?,Paris\n')).toBe(false);
    expect(errors.join('\n')).toContain('did you mean `expected`?');
    expect(errors.join('\n')).not.toContain('nothing to grade');
    // Declared as metadata, the column grades nothing: then that is said.
    expect(await check('evaluation', 'question,expeted\nWhere?,Paris\n', {}, 'metadata: [expeted]\n')).toBe(false);
    expect(errors.join('\n')).toContain('no row has anything to grade');
  });
});
