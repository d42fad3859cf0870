import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatasetRow } from '../../../src/domain/dataset';
import { CustomGraderError, runCustomGrader } from '../../../src/grading/custom';

const fixture = (name: string): string => join(__dirname, 'fixtures', name);
// Written at test time: ESLint parses `.cjs` files but no tsconfig covers them.
const scoreGrader = join(mkdtempSync(join(tmpdir(), 'grader-')), 'score-grader.cjs');
writeFileSync(scoreGrader, 'module.exports.grade = (_row, answer) => answer.answer.length / 10;\n');
const row: DatasetRow = { id: '1', index: 0, line: 2, question: 'Paris', expected: 'Paris', metadata: {} };

describe('runCustomGrader', () => {
  it('accepts a boolean from an ESM named export', async () => {
    expect(await runCustomGrader(fixture('bool-grader.mjs'), row, { answer: 'Paris!' })).toEqual({
      type: 'custom', pass: true, score: 1, reason: 'custom grader passed',
    });
  });
  it('accepts a number and applies the threshold', async () => {
    const r = await runCustomGrader(scoreGrader, row, { answer: 'abc' });
    expect(r).toMatchObject({ pass: false, reason: 'custom score 0.30 < 0.50' });
    expect(r.score).toBeCloseTo(0.3);
    expect((await runCustomGrader(scoreGrader, row, { answer: 'abc' }, 0.2)).pass).toBe(true);
    expect((await runCustomGrader(scoreGrader, row, { answer: 'x'.repeat(50) })).score).toBe(1);
  });
  it('accepts an object from a CommonJS default export, and relative paths', async () => {
    const path = relative(process.cwd(), fixture('object-grader.js'));
    expect(await runCustomGrader(path, row, { answer: 'Paris' })).toEqual({
      type: 'custom', pass: true, score: 0.9, reason: 'compared with Paris',
    });
  });
  it('turns a throwing grader or a bad result into a failed assertion', async () => {
    const thrown = await runCustomGrader(fixture('throwing-grader.mjs'), row, { answer: '' });
    expect(thrown).toMatchObject({ pass: false, score: 0 });
    expect(thrown.reason).toMatch(/throwing-grader\.mjs threw: boom$/);
    const bad = await runCustomGrader(fixture('bad-shape-grader.mjs'), row, { answer: '' });
    expect(bad.reason).toContain('returned "yes"; expected a boolean');
  });
  it('throws CustomGraderError when the module is missing or has no grade', async () => {
    await expect(runCustomGrader(fixture('missing.mjs'), row, { answer: '' })).rejects.toBeInstanceOf(CustomGraderError);
    await expect(runCustomGrader(fixture('no-grade.mjs'), row, { answer: '' })).rejects.toThrow(/exports no grade\(row, answer\) function/);
  });
});

describe('workflow-safe surface', () => {
  it('src/grading/index.ts and the pure graders import no Node modules and no custom.ts', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const dir = join(__dirname, '../../../src/grading');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && f !== 'custom.ts');
    for (const file of files) {
      const text = await readFile(join(dir, file), 'utf8');
      expect(text, file).not.toMatch(/from '(node:|fs|path|url|crypto)/);
      expect(text, file).not.toMatch(/from '\.\/custom'|Buffer|Date\.now|Math\.random|new Date/);
    }
  });
});
