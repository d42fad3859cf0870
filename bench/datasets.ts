/**
 * Bench datasets: N single-turn rows cycling through the questions of datasets/demo.csv that the demo knowledge
 * base answers (those with a `must_include`), so every row is graded and gets feedback, as in a nightly run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { csvLine } from '../src/datasets/csvWriter';
import { projectRoot } from '../src/shared/projectRoot';

export interface BenchRow {
  id: string;
  question: string;
  must_include: string;
}

export function demoQuestions(): { question: string; must_include: string }[] {
  const records = parse(readFileSync(join(projectRoot(), 'datasets', 'demo.csv'), 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const rows = records
    .filter((r) => !r.conversation && r.question && r.must_include)
    .map((r) => ({ question: r.question as string, must_include: r.must_include as string }));
  if (rows.length === 0) throw new Error('datasets/demo.csv has no single-turn rows with `must_include`');
  return rows;
}

export function benchRows(n: number): BenchRow[] {
  const questions = demoQuestions();
  return Array.from({ length: n }, (_, i) => {
    const q = questions[i % questions.length] as (typeof questions)[number];
    return { id: `b${String(i + 1).padStart(6, '0')}`, question: q.question, must_include: q.must_include };
  });
}

/** Writes `rows` as `id,question,must_include` and returns the path. */
export function writeBenchCsv(dir: string, name: string, rows: BenchRow[]): string {
  const path = join(dir, `${name}.csv`);
  writeFileSync(path, [csvLine(['id', 'question', 'must_include']), ...rows.map((r) => csvLine([r.id, r.question, r.must_include]))].join(''));
  return path;
}
