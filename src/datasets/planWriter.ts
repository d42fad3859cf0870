/** Appends WorkUnits as JSONL through a write buffer, recording where each page starts. */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { RowLimit, slimUnitBytes } from './limits';
import type { WorkUnit } from '../domain/dataset';

/** Bytes buffered before a write. */
const FLUSH_AT = 64 * 1024;

export class PlanWriter {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private bytes = 0;
  private units = 0;
  private readonly offsets: number[] = [];
  /** Units and workflow-payload bytes of the page being written. */
  private pageUnits = 0;
  private pageBytes = 0;

  private constructor(private readonly path: string, private readonly handle: FileHandle, private readonly pageSize: number) {}

  /** Creates (or truncates) `path`. */
  static async open(path: string, pageSize: number): Promise<PlanWriter> {
    return new PlanWriter(path, await open(path, 'w'), pageSize);
  }

  /**
   * Starts a new page every `pageSize` units, and earlier when the page's rows without metadata would pass
   * `RowLimit.pageBytes`: a page is one activity result in the chunk's history.
   */
  async write(unit: WorkUnit): Promise<void> {
    const slim = slimUnitBytes(unit);
    if (this.units === 0 || this.pageUnits === this.pageSize || (this.pageUnits > 0 && this.pageBytes + slim > RowLimit.pageBytes)) {
      this.offsets.push(this.bytes);
      this.pageUnits = 0;
      this.pageBytes = 0;
    }
    this.pageUnits += 1;
    this.pageBytes += slim;
    const line = Buffer.from(`${JSON.stringify(unit)}\n`, 'utf8');
    this.chunks.push(line);
    this.buffered += line.length;
    this.bytes += line.length;
    this.units += 1;
    if (this.buffered >= FLUSH_AT) await this.flush();
  }

  /** Flushes, closes, and returns the page offsets, total bytes and unit count. */
  async close(): Promise<{ offsets: number[]; bytes: number; units: number }> {
    await this.flush();
    await this.handle.close();
    return { offsets: this.offsets, bytes: this.bytes, units: this.units };
  }

  /** Closes and deletes the file. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }

  private async flush(): Promise<void> {
    if (this.chunks.length === 0) return;
    const data = Buffer.concat(this.chunks);
    this.chunks.length = 0;
    this.buffered = 0;
    await this.handle.write(data);
  }
}
