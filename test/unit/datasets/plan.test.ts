import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  buildWorkPlan, DatasetChangedError, DatasetValidationError, readWorkPage, readWorkPlanIndex, sha256File,
} from '../../../src/datasets';

const fixture = (name: string): string => join(__dirname, '../../fixtures/datasets', name);
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plan-'));
});

describe('buildWorkPlan', () => {
  it('groups conversations, orders turns, pages the units and reads them back', async () => {
    const file = fixture('conversations.csv');
    const planDir = join(dir, 'plan');
    const info = await buildWorkPlan(file, planDir, { pageSize: 2 });
    expect(info).toEqual({ sha256: await sha256File(file), rows: 8, units: 5, pages: 3, pageSize: 2, planDir });
    const pages = await Promise.all([0, 1, 2].map((p) => readWorkPage(planDir, p)));
    expect(pages.map((units) => units.map((u) => [u.key, u.rows.map((r) => r.id)]))).toEqual([
      [['row:s1', ['s1']], ['row:s2', ['s2']]],
      [['row:s3', ['s3']], ['conv-a', ['t1', 't2', 't3']]],
      [['conv-b', ['u1', 'u2']]],
    ]);
    const convB = pages[2]?.[0]?.rows;
    expect(convB?.map((r) => [r.index, r.line, r.session_id])).toEqual([[4, 6, 'sess-b'], [5, 7, 'sess-b']]);
    expect(pages[1]?.[1]?.rows.map((r) => r.index)).toEqual([3, 1, 6]);
    expect(await readdir(planDir)).toEqual(['plan-index.json', 'plan.jsonl']);
    const index = await readWorkPlanIndex(planDir);
    expect(index).toMatchObject({ version: 1, dataset: file, units: 5, pages: 3 });
    expect(index.offsets[0]).toBe(0);
  });

  it('rows that share a session_id without a conversation are one unit, in file order, in that session', async () => {
    const file = join(dir, 'shared.csv');
    await writeFile(file, 'id,question,session_id\na,First?,thread-a\nx,Alone?,\nb,Second?,thread-a\nc,Third?,thread-a\n');
    const planDir = join(dir, 'plan');
    expect(await buildWorkPlan(file, planDir, { pageSize: 10 })).toMatchObject({ rows: 4, units: 2 });
    const units = await readWorkPage(planDir, 0);
    expect(units.map((u) => [u.key, u.rows.map((r) => [r.id, r.session_id])])).toEqual([
      ['row:x', [['x', undefined]]],
      ['session:thread-a', [['a', 'thread-a'], ['b', 'thread-a'], ['c', 'thread-a']]],
    ]);
  });

  it('rejects out-of-range pages', async () => {
    const planDir = join(dir, 'p');
    await buildWorkPlan(fixture('conversations.csv'), planDir, { pageSize: 10 });
    await expect(readWorkPage(planDir, 1)).rejects.toThrow(/page 1 is out of range: the plan in .* has 1 page$/);
    await expect(readWorkPage(planDir, -1)).rejects.toThrow(RangeError);
  });

  it('accepts a matching sha256 and refuses a changed file, naming both hashes', async () => {
    const file = fixture('rows.jsonl');
    const sha = await sha256File(file);
    await expect(buildWorkPlan(file, dir, { pageSize: 5, defaultEmail: 'a@b.co', expectedSha256: sha })).resolves.toMatchObject({ rows: 3, units: 3 });
    const error: unknown = await buildWorkPlan(file, join(dir, 'x'), { pageSize: 5, defaultEmail: 'a@b.co', expectedSha256: 'f'.repeat(64) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetChangedError);
    expect((error as Error).message).toBe(`${file} changed since the run started: sha256 was ${'f'.repeat(64)}, is now ${sha}`);
    expect(await readdir(join(dir, 'x'))).toEqual([]);
  });

  it('throws every validation issue and leaves no plan behind', async () => {
    const error: unknown = await buildWorkPlan(fixture('invalid.csv'), dir, { pageSize: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetValidationError);
    // 15 with the email rule, which the runner's own session ids make moot (3 of them).
    expect((error as DatasetValidationError).issues).toHaveLength(12);
    expect((error as Error).message.split('\n')[0]).toBe(`${fixture('invalid.csv')}: 12 problems in the dataset`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('starts a new page before its rows (without metadata) pass 256 KiB, however large their metadata', async () => {
    const file = join(dir, 'wide.csv');
    const rows = Array.from({ length: 30 }, (_, i) => `r${i},${'q'.repeat(15_000)},${'m'.repeat(100_000)}`);
    const out = createWriteStream(file);
    out.end(['id,question,context', ...rows].join('\n') + '\n');
    await once(out, 'finish');
    const plan = await buildWorkPlan(file, join(dir, 'plan'), { pageSize: 100 });
    // ~15 KB a row: 17 fit in 256 KiB, so 30 rows make two pages, though the metadata alone is 3 MB.
    expect(plan.pages).toBe(2);
    const first = await readWorkPage(join(dir, 'plan'), 0);
    expect(first).toHaveLength(17);
    expect(first[0]?.rows[0]?.metadata.context).toHaveLength(100_000);
  });

  it('rejects a bad page size', async () => {
    await expect(buildWorkPlan(fixture('rows.jsonl'), dir, { pageSize: 0 })).rejects.toThrow(RangeError);
  });

  it('streams a 20,000-row file and pages it back', async () => {
    const file = join(dir, 'big.csv');
    const out = createWriteStream(file);
    out.write('id,question,expected,conversation,turn\n');
    for (let i = 1; i <= 20_000; i += 1) {
      const conversation = i % 100 === 0 ? `conv-${i / 1000 | 0}` : '';
      const turn = conversation === '' ? '' : String(((i / 100) % 10) + 1);
      out.write(`r${i},"Question ${i}, with ""quotes""?",Answer ${i},${conversation},${turn}\n`);
    }
    out.end();
    await once(out, 'finish');
    const info = await buildWorkPlan(file, join(dir, 'plan'), { pageSize: 500, defaultEmail: 'load@example.com' });
    expect(info).toMatchObject({ rows: 20_000, units: 19_800 + 21, pages: 40 });
    const first = await readWorkPage(info.planDir, 0);
    expect(first).toHaveLength(500);
    expect(first[0]?.rows[0]).toMatchObject({ id: 'r1', line: 2, question: 'Question 1, with "quotes"?', email: 'load@example.com' });
    const last = await readWorkPage(info.planDir, 39);
    expect(last).toHaveLength(321);
    const conv = last.find((u) => u.key === 'conv-5');
    expect(conv?.rows.map((r) => r.turn)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let rows = 0;
    for (let p = 0; p < info.pages; p += 1) rows += (await readWorkPage(info.planDir, p)).reduce((n, u) => n + u.rows.length, 0);
    expect(rows).toBe(20_000);
    const text = await readFile(join(info.planDir, 'plan.jsonl'), 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(19_821);
  });
});
