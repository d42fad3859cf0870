import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanDataset, walkDataset, type DatasetRow } from '../../../src/datasets';

const fixture = (name: string): string => join(__dirname, '../../fixtures/datasets', name);

async function rowsOf(name: string, options = {}): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  await walkDataset(fixture(name), options, (row) => {
    rows.push(row);
  });
  return rows;
}

describe('CSV reader', () => {
  it('reads a BOM, CRLF line ends, lists, tags and metadata', async () => {
    const rows = await rowsOf('bom-crlf.csv', { defaultEmail: 'me@example.com' });
    expect(rows).toEqual([
      {
        id: 'q1', index: 0, line: 2, question: 'What time do you open?', expected: 'We open at 9',
        must_include: ['9', 'open'], tags: ['hours', 'store'], email: 'me@example.com', metadata: { source: 'faq' },
      },
      { id: 'q2', index: 1, line: 3, question: 'Where is the\r\nstore?', email: 'me@example.com', metadata: {} },
    ]);
    const scan = await scanDataset(fixture('bom-crlf.csv'), { defaultEmail: 'me@example.com' });
    expect(scan).toMatchObject({ format: 'csv', rows: 2, conversations: 2, issues: [], issueCount: 0 });
    expect(scan.columns).toEqual(['id', 'question', 'expected', 'must_include', 'tags', 'source']);
    expect(scan.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('detects `;` and keeps quoted delimiters', async () => {
    const rows = await rowsOf('semicolon.csv', { defaultEmail: 'me@example.com' });
    expect(rows.map((r) => [r.id, r.question, r.expected, r.must_not_include])).toEqual([
      ['1', 'Wie spät; bitte?', 'Neun Uhr', ['sorry', 'cannot']],
      ['2', 'Zweite Frage', undefined, undefined],
    ]);
  });

  it('detects tabs, and accepts an explicit delimiter', async () => {
    const rows = await rowsOf('tabs.tsv');
    expect(rows.map((r) => [r.question, r.conversation, r.turn, r.email])).toEqual([
      ['Hi', 'c1', 1, 'a@example.com'],
      ['And then?', 'c1', 2, undefined],
    ]);
    expect((await rowsOf('tabs.tsv', { delimiter: 'tab' })).length).toBe(2);
    const wrong = await scanDataset(fixture('tabs.tsv'), { delimiter: ',' });
    expect(wrong.issues[0]?.message).toMatch(/no `question` column/);
  });

  it('gives multi-line records the line they start on', async () => {
    const scan = await scanDataset(fixture('multiline.csv'), { defaultEmail: 'me@example.com' });
    const rows = await rowsOf('multiline.csv', { defaultEmail: 'me@example.com' });
    expect(rows.map((r) => [r.id, r.line, r.index])).toEqual([['a', 2, 0], ['b', 6, 1], ['d', 9, 3]]);
    expect(rows[0]?.question).toBe('first\nquestion\nspans three lines');
    expect(scan.rows).toBe(4);
    expect(scan.issues).toEqual([{ file: fixture('multiline.csv'), line: 8, column: 'question', message: '`question` is empty' }]);
  });

  it('counts leading blank lines, and tolerates quotes inside unquoted fields', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const file = join(await mkdtemp(join(tmpdir(), 'csv-')), 'blank.csv');
    await writeFile(file, '\n\nquestion;email\n\nHe said "hi";a@b.co\n  \nlast;a@b.co');
    const rows: DatasetRow[] = [];
    const scan = await walkDataset(file, {}, (row) => {
      rows.push(row);
    });
    expect(rows.map((r) => [r.line, r.question])).toEqual([[5, 'He said "hi"'], [7, 'last']]);
    expect(scan.issues).toEqual([]);
  });
});

describe('JSONL reader', () => {
  it('reads objects, arrays or `|` strings for lists, numbers, and keeps unknown keys as strings', async () => {
    const rows = await rowsOf('rows.jsonl', { defaultEmail: 'me@example.com' });
    expect(rows).toEqual([
      {
        id: '1', index: 0, line: 1, question: 'What is the capital of France?', expected: 'Paris', must_include: ['Paris'],
        tags: ['geo', 'easy'], min_confidence: 50, email: 'me@example.com', metadata: {},
      },
      {
        id: '2', index: 1, line: 3, question: 'Second?', include_any: ['yes', 'no'], regex: '/y(es)?/i', email: 'me@example.com',
        metadata: { source: '{"page":3}', difficulty: '2', note: 'plain' },
      },
      { id: '3', index: 2, line: 5, question: 'Third', conversation: 'c', turn: 2, email: 'me@example.com', metadata: {} },
    ]);
  });

  it('keeps `expected` one string: `|` references stay as written, a JSON array of references is joined', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const file = join(await mkdtemp(join(tmpdir(), 'jsonl-')), 'refs.jsonl');
    await writeFile(file, [
      '{"question": "a", "expected": "Paris | City of Paris"}',
      '{"question": "b", "expected": ["Paris", "a | b", " ", 1914]}',
      '{"question": "c", "expected": " | "}',
      '{"question": "d", "expected": [{"x": 1}]}',
      '{"question": "e", "expected": []}',
    ].join('\n'));
    const rows: DatasetRow[] = [];
    const scan = await walkDataset(file, { defaultEmail: 'a@b.co' }, (row) => void rows.push(row));
    expect(rows.map((r) => [r.question, r.expected])).toEqual([['a', 'Paris | City of Paris'], ['b', 'Paris|a \\| b|1914'], ['e', undefined]]);
    expect(scan.issues.map((i) => [i.line, i.column, i.message])).toEqual([
      [3, 'expected', '`expected` has no reference between its `|` separators'],
      [4, 'expected', '`expected` must be text or a list of texts (got [{"x":1}])'],
    ]);
  });

  it('reports bad lines and goes on', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const file = join(await mkdtemp(join(tmpdir(), 'jsonl-')), 'bad.jsonl');
    await writeFile(file, '{"question": "ok", "email": "a@b.co"}\r\n{oops}\r\n[1]\r\n{"question": ["x"], "must_include": [{}], "email": "a@b.co"}\r\n');
    const scan = await scanDataset(file);
    expect(scan.rows).toBe(2);
    expect(scan.issues.map((i) => [i.line, i.message.replace(/: .*$/, ': …')])).toEqual([
      [2, 'invalid JSON: …'],
      [3, 'expected a JSON object, got an array'],
      [4, '`question` must be text (got ["x"])'],
      [4, '`must_include` must list text values'],
    ]);
  });
});
