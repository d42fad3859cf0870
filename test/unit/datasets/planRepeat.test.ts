import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWorkPlan, DatasetValidationError, readWorkPage } from '../../../src/datasets';

const fixture = (name: string): string => join(__dirname, '../../fixtures/datasets', name);

describe('buildWorkPlan with repeat', () => {
  it('writes each conversation N times in a row: repeat 1 keeps the ids, later repeats get their own ids, conversation and no session id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plan-repeat-'));
    const info = await buildWorkPlan(fixture('conversations.csv'), dir, { pageSize: 100, repeat: 3 });
    expect(info).toMatchObject({ rows: 24, units: 15, pages: 1 });
    const units = await readWorkPage(dir, 0);
    expect(units.slice(0, 3).map((u) => [u.key, u.rows.map((r) => [r.id, r.baseId, r.repeat])])).toEqual([
      ['row:s1', [['s1', 's1', 1]]],
      ['row:s1#r2', [['s1#r2', 's1', 2]]],
      ['row:s1#r3', [['s1#r3', 's1', 3]]],
    ]);
    const convB = units.filter((u) => u.key.startsWith('conv-b'));
    expect(convB.map((u) => u.rows.map((r) => [r.id, r.conversation, r.session_id, r.index]))).toEqual([
      [['u1', 'conv-b', 'sess-b', 4], ['u2', 'conv-b', 'sess-b', 5]],
      [['u1#r2', 'conv-b#r2', undefined, 4], ['u2#r2', 'conv-b#r2', undefined, 5]],
      [['u1#r3', 'conv-b#r3', undefined, 4], ['u2#r3', 'conv-b#r3', undefined, 5]],
    ]);
  });

  it('keeps the plan of a run without repeats exactly as it was (no baseId, no repeat)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plan-repeat-'));
    await buildWorkPlan(fixture('conversations.csv'), dir, { pageSize: 100, repeat: 1 });
    const rows = (await readWorkPage(dir, 0)).flatMap((u) => u.rows);
    expect(rows.every((r) => !('baseId' in r) && !('repeat' in r))).toBe(true);
  });

  it("refuses a dataset id that looks like a repeat's, naming the file, line and column", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plan-repeat-'));
    const file = join(dir, 'q.csv');
    await writeFile(file, 'id,question\na,What is it?\na#r2,What else?\n');
    const error: unknown = await buildWorkPlan(file, join(dir, 'plan'), { pageSize: 10, repeat: 2, defaultEmail: 'a@b.co' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetValidationError);
    expect((error as DatasetValidationError).issues).toEqual([expect.objectContaining({ file, line: 3, column: 'id' })]);
    await expect(buildWorkPlan(file, join(dir, 'plan1'), { pageSize: 10, repeat: 1, defaultEmail: 'a@b.co' })).resolves.toMatchObject({ rows: 2 });
  });
});
