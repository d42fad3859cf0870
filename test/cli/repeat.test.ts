import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { CLI, sitechat } from '../helpers/cli';

describe('sitechat run --repeat (the CLI, embedded Temporal dev server and simulator)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-cli-repeat-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says before it starts that it sends N × the questions, grades every answer and prints each row k of N', async () => {
    const file = join(dir, 'tiny.csv');
    writeFileSync(file, 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\nq2,What is the airspeed of an unladen swallow?,swallow\n');
    const ran = await sitechat(dir, ['run', file, '--repeat', '2', '--out', join(dir, 'report')]);
    expect(ran.code, ran.stderr).toBe(0);
    // The plan line's wording is pinned in test/unit/cli/repeatFlags.test.ts; here, its figures for this dataset.
    expect(ran.stderr + ran.stdout).toMatch(/2 rows, 2 conversations, each asked 2 times .*: 4 questions, /u);
    expect(ran.stdout).toMatch(/repeats {4}2 rows asked 2 times: /);
    expect(ran.stdout).toMatch(/rows by passes: /);
    const results = readFileSync(join(dir, 'report', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);
    expect(results.map((r) => r.id).sort()).toEqual(['q1', 'q1#r2', 'q2', 'q2#r2']);
    const summary = JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.repeats).toMatchObject({ n: 2, rows: 2 });
  });

  it('refuses a bad --repeat and --confirm before anything starts (exit 2)', async () => {
    const file = join(dir, 'one.csv');
    writeFileSync(file, 'id,question\nq1,How much does the Personal plan cost?\n');
    const bad = await sitechat(dir, ['run', file, '--repeat', '0', '--confirm', '9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--repeat: must be a whole number >= 1, got "0"');
    expect(bad.stderr).toContain('--confirm: must be a whole number from 0 (off) to 5, got "9"');
    expect(bad.stderr).toContain('nothing was sent');
  });
});
