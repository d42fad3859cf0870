import { describe, expect, it } from 'vitest';
import { datasetFormat, detectDelimiter, normalizeDelimiter } from '../../../src/datasets';

describe('format helpers', () => {
  it('maps extensions to formats, case-insensitively', () => {
    expect(['a.csv', 'a.TSV', 'a.jsonl', 'a.ndjson'].map(datasetFormat)).toEqual(['csv', 'csv', 'jsonl', 'jsonl']);
    expect(() => datasetFormat('a')).toThrow('a: unsupported dataset format (no extension)');
  });

  it('detects the delimiter from the header, ignoring quoted ones', () => {
    expect(detectDelimiter('id,question,expected')).toBe(',');
    expect(detectDelimiter('id;question;"a,b,c"')).toBe(';');
    expect(detectDelimiter('id\tquestion\t"x;y"')).toBe('\t');
    expect(detectDelimiter('question')).toBe(',');
    expect(detectDelimiter('question', '\t')).toBe('\t');
    expect(detectDelimiter('a,b;c')).toBe(',');
  });

  it('normalizes named delimiters', () => {
    expect(['tab', '\\t', 'comma', 'Semicolon', 'pipe', '|'].map((d) => normalizeDelimiter('f.csv', d))).toEqual(['\t', '\t', ',', ';', '|', '|']);
    expect(() => normalizeDelimiter('f.csv', '"')).toThrow('f.csv: invalid delimiter');
  });
});
