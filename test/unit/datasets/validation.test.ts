import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DatasetFileError, DatasetValidationError, EMAIL_REQUIRED, formatIssue, scanDataset, sha256File, type DatasetIssue,
} from '../../../src/datasets';

const fixture = (name: string): string => join(__dirname, '../../fixtures/datasets', name);

async function tempFile(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'dataset-')), name);
  await writeFile(file, text);
  return file;
}

describe('validation', () => {
  it('reports every problem, each with file, line and column', async () => {
    const file = fixture('invalid.csv');
    const scan = await scanDataset(file, { requireEmail: true });
    const lines = scan.issues.map((i) => formatIssue({ ...i, file: 'datasets/invalid.csv' }));
    expect(lines).toEqual([
      'datasets/invalid.csv:2: `question` is empty',
      'datasets/invalid.csv:2: `turn` must be a whole number >= 1 (got 0)',
      'datasets/invalid.csv:2: `email` is not a valid email address (got "not-an-email")',
      'datasets/invalid.csv:2: `regex` does not compile: Invalid regular expression: /(unclosed/: Unterminated group',
      'datasets/invalid.csv:2: `min_confidence` must be a number from 0 to 100 (got 101)',
      'datasets/invalid.csv:3: `turn` must be a whole number >= 1 (got 1.5)',
      'datasets/invalid.csv:3: `min_confidence` must be a number from 0 to 100 (got "abc")',
      'datasets/invalid.csv:4: `id` "r1" is also used on line 2',
      `datasets/invalid.csv:4: ${EMAIL_REQUIRED}`,
      `datasets/invalid.csv:5: ${EMAIL_REQUIRED}`,
      'datasets/invalid.csv:7: `turn` 1 of conversation "c1" is also on line 6',
      'datasets/invalid.csv:8: `session_id` "s-2" conflicts with "s-1" on line 7 in conversation "c1"',
      'datasets/invalid.csv:11: the row has 10 fields but the header has 9',
      `datasets/invalid.csv:11: ${EMAIL_REQUIRED}`,
      'datasets/invalid.csv:10: `turn` is missing while other rows of conversation "c2" have one',
    ]);
    expect(scan.issues[0]).toEqual({ file, line: 2, column: 'question', message: '`question` is empty' });
    expect(scan).toMatchObject({ rows: 10, issueCount: 15 });
  });

  it('an email default satisfies new sessions', async () => {
    const scan = await scanDataset(fixture('invalid.csv'), { defaultEmail: 'bot@example.com', requireEmail: true });
    expect(scan.issues.some((i) => i.message === EMAIL_REQUIRED)).toBe(false);
    expect(scan.issueCount).toBe(12);
  });

  it('needs the email on the opening turn of a conversation without session_id', async () => {
    const file = await tempFile('c.csv', 'question,conversation,turn,email\nsecond,c,2,a@b.co\nfirst,c,1,\n');
    const scan = await scanDataset(file, { requireEmail: true });
    expect(scan.issues.map((i) => [i.line, i.message])).toEqual([[3, EMAIL_REQUIRED]]);
    // The runner names its sessions, so by default no email is needed.
    expect((await scanDataset(file)).issues).toEqual([]);
  });

  it('defaults ids to the data row number and catches clashes with explicit ids', async () => {
    const file = await tempFile('ids.csv', 'id,question,email\n,one,a@b.co\n1,two,a@b.co\n');
    const scan = await scanDataset(file);
    expect(scan.issues.map(formatIssue)).toEqual([`${file}:3: \`id\` "1" is also used on line 2`]);
  });

  it('reports a missing `question` column once', async () => {
    const file = await tempFile('noq.csv', 'id,prompt\n1,a\n2,b\n');
    const scan = await scanDataset(file);
    expect(scan.issues.map(formatIssue)).toEqual([`${file}:1: the header has no \`question\` column (columns: id, prompt)`]);
    expect(scan.rows).toBe(2);
  });

  it('reports header problems, empty files and files without rows', async () => {
    const dup = await scanDataset(await tempFile('dup.csv', 'question,Question,,x\nq,q,q,q\n'), { defaultEmail: 'a@b.co' });
    expect(dup.issues.map((i) => i.message)).toEqual(['column `question` appears twice in the header', 'column 3 of the header has no name']);
    expect((await scanDataset(await tempFile('empty.csv', ''))).issues.map((i) => i.message)).toEqual([
      'the file is empty: expected a header line naming the columns',
    ]);
    const headerOnly = await scanDataset(await tempFile('h.csv', 'question\n\n'));
    expect(headerOnly.issues.map(formatIssue)).toEqual([`${headerOnly.file}: the dataset has no rows`]);
    expect((await scanDataset(await tempFile('e.jsonl', '\n\n'))).issues.map((i) => i.message)).toEqual(['the dataset has no rows']);
  });

  it('reports an unclosed quote at the record that opens it, and still hashes the whole file', async () => {
    const file = await tempFile('q.csv', 'question,email\nok,a@b.co\n"never closed,a@b.co\nmore\n');
    const scan = await scanDataset(file);
    expect(scan.issues.map(formatIssue)).toEqual([`${file}:3: a quoted field that starts in this record is never closed`]);
    expect(scan.sha256).toBe(await sha256File(file));
  });

  it('skips all-empty CSV rows, and rejects `row:` conversation keys', async () => {
    const file = await tempFile('x.csv', 'question,conversation,email\n,,\nq,row:1,a@b.co\n');
    const scan = await scanDataset(file);
    expect(scan.rows).toBe(1);
    expect(scan.issues.map((i) => [i.line, i.column])).toEqual([[3, 'conversation']]);
  });

  it('refuses rows too large to travel through Temporal, naming the line and the limit; metadata columns may be megabytes', async () => {
    const long = 'q'.repeat(16_001);
    const expected = 'e'.repeat(40_000);
    const turns = Array.from({ length: 12 }, (_, i) => `turn ${i},c,${i + 1},${'r'.repeat(24_000)},`).join('\n');
    const file = await tempFile('big.csv', `question,conversation,turn,expected,context\n${long},,,,\nshort,,,${expected},\n${turns}\nfine,,,,${'m'.repeat(5_000_000)}\n`);
    const scan = await scanDataset(file);
    expect(scan.issues.map((i) => [i.line, i.column, i.message])).toEqual([
      [2, 'question', '`question` has 16001 characters; the limit is 16000 (docs/api-decisions-client.md)'],
      [3, undefined, expect.stringMatching(/^the row is 39 KiB without its metadata columns; the limit is 32 KiB /)],
      [4, 'conversation', expect.stringMatching(/^conversation "c" is 28\d KiB without its metadata columns; the limit is 256 KiB/)],
    ]);
  });

  it('caps kept issues at maxIssues but counts them all', async () => {
    const file = await tempFile('many.csv', `question\n${Array.from({ length: 30 }, (_, i) => `q${i}`).join('\n')}\n`);
    const scan = await scanDataset(file, { maxIssues: 5, requireEmail: true });
    expect(scan.issues).toHaveLength(5);
    expect(scan.issueCount).toBe(30);
  });
});

describe('session ids', () => {
  const uuid = '0b9f4c1e-6a51-4d2e-9c37-5d1f8a2b7e90';

  it('with feedback on, a session_id that is not a UUID is refused on each of its rows, naming the two ways out', async () => {
    const file = await tempFile('ids.csv', `id,question,session_id\na,One?,thread-a\nb,Two?,${uuid}\nc,Three?,thread-a\nd,Four?,\n`);
    const scan = await scanDataset(file, { uuidSessionIds: true });
    expect(scan.issues.map((i) => [i.line, i.column])).toEqual([[2, 'session_id'], [4, 'session_id']]);
    expect(formatIssue(scan.issues[0] as DatasetIssue)).toBe(`${file}:2: \`session_id\` "thread-a" is not a UUID, and the API may refuse feedback for a ` +
      'session id that is not one (it answers 400 `feedback must be \'good\' or \'bad\'`): use UUIDs as session ids, or send no feedback (--feedback none)');
    // Without feedback, any id the API takes for a session will do.
    expect((await scanDataset(file)).issueCount).toBe(0);
  });

  it('rows sharing a session_id without a conversation are one conversation: counted once, their turns checked', async () => {
    const file = await tempFile('shared.csv', 'id,question,session_id,turn\na,One?,s1,1\nb,Two?,s2,\nc,Three?,s1,1\n');
    const scan = await scanDataset(file);
    expect(scan.conversations).toBe(2);
    expect(scan.issues.map((i) => formatIssue({ ...i, file: 'shared.csv' }))).toEqual(['shared.csv:4: `turn` 1 of the conversation of `session_id` "s1" is also on line 2']);
  });

  it('refuses one session for two conversations, and conversation names the runner keeps for itself', async () => {
    const file = await tempFile('two.csv', 'id,question,conversation,session_id\na,One?,c1,s1\nb,Two?,,s1\nc,Three?,c2,s1\nd,Four?,session:x,\n');
    const scan = await scanDataset(file);
    expect(scan.issues.map((i) => formatIssue({ ...i, file: 'two.csv' }))).toEqual([
      'two.csv:3: `session_id` "s1" is also the session of conversation "c1" (line 2); an API session holds one conversation: give these rows the same `conversation`, or another session id',
      'two.csv:4: `session_id` "s1" is also the session of conversation "c1" (line 2); an API session holds one conversation: give these rows the same `conversation`, or another session id',
      'two.csv:5: `conversation` must not start with "session:" (reserved for the runner\'s own keys)',
    ]);
  });
});

describe('errors', () => {
  it('formats whole-file issues without a line', () => {
    expect(formatIssue({ file: 'a.csv', line: 0, message: 'the dataset has no rows' })).toBe('a.csv: the dataset has no rows');
  });

  it('DatasetValidationError lists issues and caps the message', () => {
    const issues: DatasetIssue[] = Array.from({ length: 25 }, (_, i) => ({ file: 'x.csv', line: i + 2, column: 'question', message: '`question` is empty' }));
    const error = new DatasetValidationError('x.csv', issues, 40);
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('x.csv: 40 problems in the dataset');
    expect(lines[1]).toBe('x.csv:2: `question` is empty');
    expect(lines).toHaveLength(22);
    expect(lines[21]).toBe('… and 20 more');
    expect(error.issues).toHaveLength(25);
    expect(new DatasetValidationError('x.csv', issues.slice(0, 1)).message).toBe('x.csv: 1 problem in the dataset\nx.csv:2: `question` is empty');
  });

  it('throws DatasetFileError for unknown extensions, missing files and bad delimiters', async () => {
    await expect(scanDataset('datasets/x.txt')).rejects.toThrow('datasets/x.txt: unsupported dataset format (".txt"): use .csv, .tsv, .jsonl or .ndjson');
    await expect(scanDataset('datasets/none.csv')).rejects.toThrow(new DatasetFileError('datasets/none.csv', 'file not found'));
    await expect(scanDataset('datasets/none.jsonl')).rejects.toBeInstanceOf(DatasetFileError);
    await expect(scanDataset(fixture('tabs.tsv'), { delimiter: '::' })).rejects.toThrow(/invalid delimiter "::"/);
  });
});
