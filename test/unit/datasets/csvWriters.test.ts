/**
 * Every CSV writer of the project against one hostile table (test/helpers/csvHostile.ts): no cell of a file it writes
 * starts like a formula, and the text comes back — by `csvCellText`, and for labels by `sitechat labels import`.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { writeBackfillOutput, BACKFILL_COLUMNS } from '../../../src/render/backfillOutput';
import { labelsExportAction } from '../../../src/cli/commands/labels/export';
import { labelsImportAction } from '../../../src/cli/commands/labels/import';
import type { Logger } from '../../../src/cli/logger';
import { csvCell, csvCellText, csvLine } from '../../../src/datasets/csvWriter';
import { forbiddenCharacter } from '../../../src/datasets/encoding';
import { labelKey, normalizeAnswerForLabel } from '../../../src/labels/key';
import { LabelVerdict, type Label } from '../../../src/domain/label';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import type { RowResult } from '../../../src/domain/results';
import { noteProblem } from '../../../src/review/save';
import { FORMULA_START, HOSTILE_CELLS } from '../../helpers/csvHostile';

const silent: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined, out: () => undefined };

function records(text: string, delimiter = ','): string[][] {
  return parse(text, { delimiter, relax_column_count: false }) as string[][];
}

function expectNoFormula(rows: string[][]): void {
  for (const row of rows) for (const cell of row) expect(cell, JSON.stringify(cell)).not.toMatch(FORMULA_START);
}

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

describe('csvCell', () => {
  it('neutralises a formula start with a single quote, then quotes as RFC 4180 says', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell("'=x")).toBe("''=x");
    expect(csvCell("'x")).toBe("'x");
    expect(csvCell('=a,b')).toBe('"\'=a,b"');
    expect(csvCell('\t=1', '\t')).toBe('"\'\t=1"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(' x')).toBe('" x"');
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell('a;b')).toBe('a;b');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(undefined)).toBe('');
  });

  it('csvCellText takes off only the quote csvCell added', () => {
    for (const text of ["'=x", "''=x", "'x", "''", '=x', 'x']) expect(csvCellText(csvCell(text))).toBe(text);
    expect(csvCellText("'hello")).toBe("'hello");
  });
});

describe('the CSV writers, with the hostile table', () => {
  it.each([',', '\t', ';'])('csvLine (delimiter %j): no formula start, every text back by csvCellText', (delimiter) => {
    const rows = records(HOSTILE_CELLS.map((cell) => csvLine([cell, 'next', 7], delimiter)).join(''), delimiter);
    expectNoFormula(rows);
    expect(rows.map((r) => csvCellText(r[0] ?? ''))).toEqual(HOSTILE_CELLS);
    expect(rows.every((r) => r[1] === 'next' && r[2] === '7')).toBe(true);
  });

  it('a backfill\'s answers.csv: every field of every row', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'csv-backfill-'));
    const rows: RowResult[] = HOSTILE_CELLS.map((cell, index) => ({
      id: cell, index, line: index + 2, question: cell, outcome: 'answered', answer: cell, email: cell, sessionId: cell, requestId: cell,
      confidenceReason: cell, error: cell, conversation: cell,
    }));
    const path = join(dir, 'answers.csv');
    await writeBackfillOutput(path, each(rows));
    const [header, ...body] = records(await readFile(path, 'utf8'));
    expect(header).toEqual([...BACKFILL_COLUMNS]);
    expectNoFormula(body);
    for (const column of ['id', 'question', 'answer', 'email', 'session_id', 'request_id', 'confidence_reason', 'error', 'conversation'] as const) {
      expect(body.map((r) => csvCellText(r[BACKFILL_COLUMNS.indexOf(column)] ?? '')), column).toEqual(HOSTILE_CELLS);
    }
  });

  /**
   * Labels a review could have saved with these texts: the note as the page sends it (trimmed; `noteProblem` accepts
   * it), the other fields as a row may hold them (texts a label file may hold: the table's lone carriage return is
   * left out, as a CSV import refuses it). One site each, so no two share a key.
   */
  const labels: Label[] = HOSTILE_CELLS.filter((cell) => forbiddenCharacter(cell) === undefined).map((cell, i) => {
    const subject = { siteId: `site-${i}`, question: cell, references: [cell.trim(), '=1+1'], rubric: cell, answer: cell };
    return { key: labelKey(subject), ...subject, answer: normalizeAnswerForLabel(cell), verdict: LabelVerdict.fail, note: cell.trim(), by: '@ana', at: '2026-01-02T03:04:05.000Z' };
  });

  it('the page accepts every note of these labels', () => {
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(noteProblem(label.note ?? ''), JSON.stringify(label.note)).toBeUndefined();
  });

  it.each(['labels.csv', 'labels.tsv'])('`sitechat labels export %s`: no formula start; an import of it gives the same labels', async (name) => {
    const dir = await mkdtemp(join(tmpdir(), 'csv-labels-'));
    await new FileResultsStore(join(dir, 'from')).putLabels(labels);
    const file = join(dir, name);
    expect(await labelsExportAction(file, {}, { log: silent, env: { SITECHAT_RUNS_DIR: join(dir, 'from') } })).toBe(0);
    const [, ...body] = records(await readFile(file, 'utf8'), name.endsWith('.tsv') ? '\t' : ',');
    expectNoFormula(body);
    expect(body).toHaveLength(labels.length);

    expect(await labelsImportAction(file, {}, { log: silent, env: { SITECHAT_RUNS_DIR: join(dir, 'to') } })).toBe(0);
    const back: Label[] = [];
    for await (const label of new FileResultsStore(join(dir, 'to')).readLabels()) back.push(label);
    const bySite = (a: Label, b: Label): number => a.siteId.localeCompare(b.siteId);
    expect(back.map(({ source: _source, ...label }) => label).sort(bySite)).toEqual([...labels].sort(bySite));
  });
});
