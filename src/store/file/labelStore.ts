import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Label, LabelFilter } from '../../domain/label';
import type { LabelStore } from '../store';
import { appendDurably, scanLines } from '../../shared/fileIo';
import { LABELS_FILE } from '../files';
import { assertValidLabel, byKey, latestByKey } from '../labelRecords';

/** Labels read concurrently per step of `readLabels`. */
const READ_BATCH = 256;

interface LabelEntry {
  key: string;
  siteId: string;
  offset: number;
  length: number;
}

/** Where the latest line of each key is, for the bytes of the file scanned so far. */
interface LabelIndex {
  /** The file scanned (a file replaced or cut short is scanned again from the start). */
  inode: number;
  /** Byte offset just past the last complete line scanned. */
  scanned: number;
  byKey: Map<string, LabelEntry>;
}

/**
 * Labels of a file store: one append-only `labels.jsonl` in the store's root (labels belong to a site, not a run).
 * Each batch is one fsync'ed `O_APPEND` write, so workers sharing the filesystem and the review page never interleave
 * lines; the last line of a key wins on read, and lines that do not parse (a write torn by a crash) are skipped.
 *
 * Every ask of a run looks its answer's label up, so lookups must not read the whole file each time: the store keeps
 * a key → byte-offset index (about 150 bytes a label) and on each call scans only what was appended since (by any
 * process), then reads the labels wanted with positioned reads.
 */
export class FileLabelStore implements LabelStore {
  private writes: Promise<void> = Promise.resolve();
  private index: LabelIndex = { inode: -1, scanned: 0, byKey: new Map() };
  private refreshing?: Promise<LabelIndex>;

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
    const next = this.writes.then(async () => {
      await mkdir(this.rootDir, { recursive: true });
      await appendDurably(this.path, text);
    });
    this.writes = next.catch(() => undefined);
    await next;
  }

  async getLabels(keys: readonly string[]): Promise<Map<string, Label>> {
    const found = new Map<string, Label>();
    if (keys.length === 0) return found;
    const index = await this.refresh();
    const entries = [...new Set(keys)].map((key) => index.byKey.get(key)).filter((e): e is LabelEntry => e !== undefined);
    for await (const label of this.readAt(entries)) found.set(label.key, label);
    return found;
  }

  async *readLabels(filter: LabelFilter = {}): AsyncGenerator<Label> {
    const index = await this.refresh();
    const entries = [...index.byKey.values()].filter((e) => filter.siteId === undefined || e.siteId === filter.siteId);
    yield* this.readAt(entries.sort((a, b) => byKey(a.key, b.key)));
  }

  private async *readAt(entries: readonly LabelEntry[]): AsyncGenerator<Label> {
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

  /** The index, brought up to the end of the file; one scan at a time (callers share it). */
  private refresh(): Promise<LabelIndex> {
    const run = async (): Promise<LabelIndex> => {
      const info = await stat(this.path).catch(() => undefined);
      if (info === undefined) return (this.index = { inode: -1, scanned: 0, byKey: new Map() });
      if (info.ino !== this.index.inode || info.size < this.index.scanned) this.index = { inode: info.ino, scanned: 0, byKey: new Map() };
      const index = this.index;
      for await (const { offset, length, text } of scanLines(this.path, 1 << 16, index.scanned)) {
        const label = parseLabel(text);
        if (label) index.byKey.set(label.key, { key: label.key, siteId: label.siteId, offset, length });
        index.scanned = offset + length + 1;
      }
      return index;
    };
    const next = (this.refreshing ?? Promise.resolve()).catch(() => undefined).then(run);
    this.refreshing = next;
    return next;
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
