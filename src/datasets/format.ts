/** Dataset format by extension, CSV delimiter detection, and the file's first bytes. */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { DatasetFileError } from './issues';

/** Supported dataset formats. */
export const DatasetFormat = {
  csv: 'csv',
  jsonl: 'jsonl',
} as const;
export type DatasetFormat = (typeof DatasetFormat)[keyof typeof DatasetFormat];

const EXTENSIONS: Record<string, DatasetFormat> = { '.csv': 'csv', '.tsv': 'csv', '.jsonl': 'jsonl', '.ndjson': 'jsonl' };

/** The format for a path's extension (`.csv`, `.tsv`, `.jsonl`, `.ndjson`, any case). */
export function datasetFormat(file: string): DatasetFormat {
  const format = EXTENSIONS[extname(file).toLowerCase()];
  if (format === undefined) {
    const ext = extname(file) === '' ? 'no extension' : `"${extname(file)}"`;
    throw new DatasetFileError(file, `unsupported dataset format (${ext}): use .csv, .tsv, .jsonl or .ndjson`);
  }
  return format;
}

const NAMED_DELIMITERS: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };

/** Reads a `--delimiter` value: one character, or `tab` / `\t` / `comma` / `semicolon` / `pipe`. */
export function normalizeDelimiter(file: string, value: string): string {
  const delimiter = NAMED_DELIMITERS[value.toLowerCase()] ?? value;
  if ([...delimiter].length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new DatasetFileError(file, `invalid delimiter ${JSON.stringify(value)}: give one character, or tab, comma, semicolon or pipe`);
  }
  return delimiter;
}

/**
 * Picks `,`, `;` or tab: the one occurring most often outside quotes in the header line.
 * Ties and headers with none (a single column) give `fallback`.
 */
export function detectDelimiter(headerLine: string, fallback = ','): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0]]);
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (best === undefined || best[1] === 0 || best[1] === second?.[1]) return fallback;
  return best[0];
}

/** The first non-blank line of a file (BOM removed), reading at most `maxBytes`. @default maxBytes 65536 */
export async function readFirstLine(file: string, maxBytes = 65_536): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new DatasetFileError(file, code === 'ENOENT' ? 'file not found' : `cannot read: ${String(error)}`, { cause: error });
  }
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/u, '');
    return text.split(/\r\n|\n|\r/u).find((line) => line.trim() !== '') ?? '';
  } finally {
    await handle.close();
  }
}

/** Throws `DatasetFileError` unless `file` is a readable regular file. */
export async function ensureReadableFile(file: string): Promise<void> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new DatasetFileError(file, 'not a file');
  } catch (error) {
    if (error instanceof DatasetFileError) throw error;
    const code = (error as { code?: unknown }).code;
    throw new DatasetFileError(file, code === 'ENOENT' ? 'file not found' : `cannot read: ${String(error)}`, { cause: error });
  }
}
