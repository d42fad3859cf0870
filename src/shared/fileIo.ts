import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';

/** One complete line of a file and where its bytes are. */
export interface LineAt {
  /** Byte offset of the first byte of the line. */
  offset: number;
  /** Length in bytes, without the newline. */
  length: number;
  text: string;
}

const NEWLINE = 0x0a;

/**
 * Yields the complete (newline-terminated) lines of a file with their byte offsets, reading in
 * fixed-size chunks, so memory stays bounded whatever the file size. A trailing line without a
 * newline (a torn or in-progress write) is not yielded; nor are bytes appended after the call began. `from` starts
 * the scan at a byte offset that begins a line (where an earlier scan of an append-only file stopped).
 */
export async function* scanLines(path: string, chunkSize = 1 << 16, from = 0): AsyncGenerator<LineAt> {
  const handle = await open(path, 'r');
  try {
    const end = (await handle.stat()).size;
    const chunk = Buffer.alloc(chunkSize);
    let pending: Buffer[] = [];
    let lineStart = from;
    let position = from;
    while (position < end) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunkSize, end - position), position);
      if (bytesRead === 0) break;
      let from = 0;
      for (let nl = chunk.indexOf(NEWLINE, 0); nl !== -1 && nl < bytesRead; nl = chunk.indexOf(NEWLINE, from)) {
        pending.push(chunk.subarray(from, nl));
        const bytes = Buffer.concat(pending);
        pending = [];
        yield { offset: lineStart, length: bytes.length, text: bytes.toString('utf8') };
        lineStart = position + nl + 1;
        from = nl + 1;
      }
      if (from < bytesRead) pending.push(Buffer.from(chunk.subarray(from, bytesRead)));
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Appends `text` with one write on an `O_APPEND` descriptor and fsyncs it. If the file ends in a
 * torn line (a crash mid-write), a newline is written first so the torn line cannot swallow the
 * first new one. Callers serialize appends to one file within a process.
 */
export async function appendDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'a+');
  try {
    const { size } = await handle.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== NEWLINE) prefix = '\n';
    }
    const bytes = Buffer.from(prefix + text, 'utf8');
    let written = 0;
    while (written < bytes.length) {
      written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file so readers see the old or the new content, never a partial one (temp file, fsync,
 * rename). `content` may be a stream of chunks, written in blocks of about 64 KiB.
 */
export async function writeFileAtomic(path: string, content: string | AsyncIterable<string>): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      if (typeof content === 'string') await handle.writeFile(content, 'utf8');
      else await writeChunks(handle, content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

async function writeChunks(handle: FileHandle, chunks: AsyncIterable<string>): Promise<void> {
  let block: string[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    block.push(chunk);
    size += chunk.length;
    if (size >= 1 << 16) {
      await handle.writeFile(block.join(''), 'utf8');
      block = [];
      size = 0;
    }
  }
  if (block.length > 0) await handle.writeFile(block.join(''), 'utf8');
}

/** True for the errors of a path that does not exist (or runs through a plain file). */
export function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Parsed JSON of a file, or undefined when the file does not exist. */
export async function readJsonIfExists(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
