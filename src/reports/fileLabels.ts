import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Label, LabelFilter, LabelStore } from '../labels/types';
import { appendDurably, scanLines } from './fileIo';
import { LABELS_FILE } from './files';
import { assertValidLabel, byKey, latestByKey } from './labelRecords';

/** Labels read concurrently per step of `readLabels`. */
const READ_BATCH = 256;

interface LabelEntry {
  key: string;
  offset: number;
  length: number;
}

/**
 * Labels of a file store: one append-only `labels.jsonl` in the store's root (labels belong to a site, not a run).
 * Each batch is one fsync'ed `O_APPEND` write, so workers sharing the filesystem and the review page never interleave
 * lines; the last line of a key wins on read, and lines that do not parse (a write torn by a crash) are skipped.
 * Reads keep only a key → byte-offset index and read labels back with positioned reads, as the row log does.
 */
export class FileLabelStore implements LabelStore {
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly rootDir: string) {}

  get path(): string {
    return join(this.rootDir, LABELS_FILE);
  }

  async putLabels(labels: readonly Label[]): Promise<void> {
    labels.forEach((label, i) => assertValidLabel(label, i));
    const latest = latestByKey(labels);
    if (latest.length === 0) return;
    const text = latest.map((label) => `${JSON.stringify(label)}\n`).join('');
    // Appends of one process queue up (lines of one write never interleave; this keeps the order of the writes too).
    const next = this.queue.then(async () => {
      await mkdir(this.rootDir, { recursive: true });
      await appendDurably(this.path, text);
    });
    this.queue = next.catch(() => undefined);
    await next;
  }

  async getLabels(keys: readonly string[]): Promise<Map<string, Label>> {
    const wanted = new Set(keys);
    const found = new Map<string, Label>();
    if (wanted.size === 0 || !(await this.exists())) return found;
    for await (const { text } of scanLines(this.path)) {
      const label = parseLabel(text);
      if (label && wanted.has(label.key)) found.set(label.key, label);
    }
    return found;
  }

  async *readLabels(filter: LabelFilter = {}): AsyncGenerator<Label> {
    const entries = await this.index(filter);
    if (entries.length === 0) return;
    const handle = await open(this.path, 'r');
    try {
      for (let i = 0; i < entries.length; i += READ_BATCH) {
        const texts = await Promise.all(
          entries.slice(i, i + READ_BATCH).map(async ({ offset, length }) => {
            const bytes = Buffer.alloc(length);
            await handle.read(bytes, 0, length, offset);
            return bytes.toString('utf8');
          }),
        );
        for (const text of texts) yield JSON.parse(text) as Label;
      }
    } finally {
      await handle.close();
    }
  }

  /** Where the latest line of each key matching the filter is, ordered by key. */
  private async index(filter: LabelFilter): Promise<LabelEntry[]> {
    if (!(await this.exists())) return [];
    const byKeyLatest = new Map<string, LabelEntry>();
    for await (const { offset, length, text } of scanLines(this.path)) {
      const label = parseLabel(text);
      if (!label) continue;
      if (filter.siteId === undefined || label.siteId === filter.siteId) byKeyLatest.set(label.key, { key: label.key, offset, length });
    }
    return [...byKeyLatest.values()].sort((a, b) => byKey(a.key, b.key));
  }

  private async exists(): Promise<boolean> {
    return (await stat(this.path).catch(() => undefined)) !== undefined;
  }
}

/** The label of a line, or undefined for a torn or foreign line. */
function parseLabel(text: string): Label | undefined {
  try {
    const label = JSON.parse(text) as Partial<Label> | null;
    return typeof label?.key === 'string' && typeof label.siteId === 'string' && typeof label.verdict === 'string' ? (label as Label) : undefined;
  } catch {
    return undefined;
  }
}
