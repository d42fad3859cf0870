import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, scanDataset, walkDataset, type DatasetRow } from '../../../src/datasets';
import { RowLimit } from '../../../src/datasets/limits';

async function tempFile(name: string, content: string | Buffer): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'dataset-input-')), name);
  await writeFile(file, content);
  return file;
}

/** `name:line[:character]: message` as the CLI prints them, with the temporary directory left out. */
async function problems(file: string): Promise<string[]> {
  const scan = await scanDataset(file);
  return scan.issues.map((i) => formatIssue({ ...i, file: basename(i.file) }));
}

/** Files of 16 to 32 MiB go through the parsers byte by byte: seconds on a loaded machine. Only a guard against hangs. */
const HUGE_FILE_TIMEOUT = 60_000;

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('dataset bytes: UTF-8 and control characters', () => {
  it('CSV: Latin-1 bytes are refused at the first bad byte, in line order with the other issues', async () => {
    const file = await tempFile('latin1.csv', latin1('id,question\nq1,Wie spät ist es?\nq2,\nq3,Où est la gare?\n'));
    expect(await problems(file)).toEqual([
      'latin1.csv:2:10: not valid UTF-8 (byte 0xE4): save the file as UTF-8; only the first bad byte is shown',
      'latin1.csv:3: `question` is empty',
    ]);
  });

  it('JSONL: Latin-1 bytes are refused with line and character; a line with one is not reported twice', async () => {
    const file = await tempFile('latin1.jsonl', Buffer.concat([
      Buffer.from('{"question": "fine"}\n{"question": "caf'), latin1('\xe9'), Buffer.from('"}\n{"question": ""}\n'),
    ]));
    expect(await problems(file)).toEqual([
      'latin1.jsonl:2:18: not valid UTF-8 (byte 0xE9): save the file as UTF-8; only the first bad byte is shown',
      'latin1.jsonl:3: `question` is empty',
    ]);
  });

  it('refuses NUL and other C0 controls in CSV cells, quoted multi-line ones included', async () => {
    const file = await tempFile('controls.csv', 'id,question,context\nq1,"two\nlines\u0000",x\nq2,ok,\u001b[2J\nq3,tab\there is fine,\n');
    expect(await problems(file)).toEqual([
      'controls.csv:3:6: control character U+0000 (NUL): only tab, line feed and CRLF line endings may appear in a dataset',
      'controls.csv:4:7: control character U+001B (escape): only tab, line feed and CRLF line endings may appear in a dataset',
    ]);
  });

  it('JSONL: refuses raw controls (without the parser\'s "bad control character" besides) and escaped ones, naming the column', async () => {
    const file = await tempFile('controls.jsonl', [
      '{"question": "raw \u0001 control"}',
      '{"question": "escaped \\u0000 NUL"}',
      '{"question": "ok", "context": {"deep": ["x\\u001b[31m"]}}',
      '{"question": "tab\\t, newline\\n and CRLF\\r\\n are fine"}',
    ].join('\n'));
    expect(await problems(file)).toEqual([
      'controls.jsonl:1:19: control character U+0001: only tab, line feed and CRLF line endings may appear in a dataset',
      'controls.jsonl:2: `question` holds control character U+0000 (NUL), escaped in the JSON: only tab, newline and carriage return may appear in a value',
      'controls.jsonl:3: `context` holds control character U+001B (escape), escaped in the JSON: only tab, newline and carriage return may appear in a value',
    ]);
  });

  it('CRLF files pass, quoted CRLF inside a CSV cell is kept; a lone carriage return is refused', async () => {
    const rows: DatasetRow[] = [];
    const crlf = await tempFile('crlf.csv', 'id,question\r\nq1,"first\r\nsecond"\r\nq2,plain\r\n');
    const scan = await walkDataset(crlf, {}, (row) => void rows.push(row));
    expect(scan.issues).toEqual([]);
    expect(rows.map((r) => [r.line, r.question])).toEqual([[2, 'first\r\nsecond'], [4, 'plain']]);
    expect((await scanDataset(await tempFile('crlf.jsonl', '{"question": "a"}\r\n{"question": "b"}\r\n'))).issues).toEqual([]);
    const lone = await tempFile('cr.csv', 'id,question\nq1,one\rtwo\n');
    expect(await problems(lone)).toEqual([
      'cr.csv:2:7: control character U+000D (carriage return) without a line feed after it: save the file with LF or CRLF line endings',
    ]);
  });
});

describe('dataset size and depth limits', () => {
  it('a JSONL row nested 100,000 deep is refused with its line, without overflowing the stack', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const file = await tempFile('deep.jsonl', `{"question": "ok"}\n{"question": "q", "metadata": ${deep}}\n{"question": "brackets in strings do not nest: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}\n`);
    expect(await problems(file)).toEqual([
      `deep.jsonl:2: objects and arrays nest more than ${RowLimit.jsonDepth} levels deep (the row object is level 1); the limit is ${RowLimit.jsonDepth}`,
    ]);
  });

  it('nesting up to the limit is fine, one level more is not', async () => {
    const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    // The row object is level 1, so its `metadata` may nest jsonDepth - 1 levels.
    const atLimit = await tempFile('at.jsonl', `{"question": "q", "metadata": ${nested(RowLimit.jsonDepth - 1)}}\n`);
    expect((await scanDataset(atLimit)).issues).toEqual([]);
    const over = await tempFile('over.jsonl', `{"question": "q", "metadata": ${nested(RowLimit.jsonDepth)}}\n`);
    expect((await scanDataset(over)).issues.map((i) => i.line)).toEqual([1]);
  });

  it('metadata over the limit is refused with its line and largest column, in CSV and JSONL', async () => {
    const big = 'm'.repeat(RowLimit.metadataBytes);
    const csv = await tempFile('big.csv', `question,context,note\nsmall,${'m'.repeat(1000)},x\nlarge,${big},x\n`);
    expect(await problems(csv)).toEqual(['big.csv:3: the row\'s metadata columns are 16.1 MiB as JSON (the largest is `context`); the limit is 16 MiB']);
    const jsonl = await tempFile('big.jsonl', `${JSON.stringify({ question: 'q', metadata: { context: big } })}\n`);
    const scan = await scanDataset(jsonl);
    expect(scan.issues.map((i) => [i.line, i.column, i.message])).toEqual([[1, 'metadata', expect.stringMatching(/^the row's metadata columns are 16.1 MiB as JSON .* the limit is 16 MiB$/)]]);
  }, HUGE_FILE_TIMEOUT);

  it('a JSONL line over the record limit is refused unparsed, and the lines after it are read', async () => {
    const huge = `{"question": "q", "context": "${'x'.repeat(RowLimit.recordBytes)}"}`;
    const file = await tempFile('huge.jsonl', `${huge}\n{"question": ""}\n`);
    expect(await problems(file)).toEqual([
      'huge.jsonl:1: the line is 32.1 MiB; the limit is 32 MiB for one row (metadata columns included)',
      'huge.jsonl:2: `question` is empty',
    ]);
  }, HUGE_FILE_TIMEOUT);

  it('a CSV record over the record limit stops the read at that record, naming it', async () => {
    const file = await tempFile('huge.csv', `id,question,context\nq1,"",x\nq2,q,${'x'.repeat(RowLimit.recordBytes)}\nq3,ok,\n`);
    const scan = await scanDataset(file);
    expect(scan.issues.map((i) => [i.line, i.message])).toEqual([
      [2, '`question` is empty'],
      [3, 'the record that starts here is over 32 MiB, the limit for one row (metadata columns included); reading stopped here'],
    ]);
  }, HUGE_FILE_TIMEOUT);
});
