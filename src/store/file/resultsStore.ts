import { mkdir, open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Label, LabelFilter } from '../../domain/label';
import type { NotifyOutcome } from '../../domain/notify';
import { FileLabelStore } from './labelStore';
import { notificationsJson, StoreFile } from '../files';
import { appendDurably, isNotFound, readJsonIfExists, scanLines, writeFileAtomic } from '../../shared/fileIo';
import { assertValidMeta, assertValidRow, assertValidSessionFailure, assertValidSettleMark, assertValidSubmission, matchesFilter, newestFirst, summaryShapeProblem, type ResultsStore, type RunFilter } from '../store';
import { CorruptRunFileError } from '../errors';
import type { RowResult, RunMeta, RunSummary, SessionCloseFailure, SettleMark, Submission } from '../../domain/results';

/** Rows read concurrently per step of `read`. */
const READ_BATCH = 256;

interface LogEntry {
  id: string;
  index: number;
  offset: number;
  length: number;
}

/**
 * Results store on a local directory, `<rootDir>/<runId>/`. Correct for one machine, or for workers
 * sharing one POSIX filesystem (each batch is one fsync'ed `O_APPEND` write; appends are also queued
 * per file inside a process, so lines never interleave).
 *
 * Every ask writes its submission twice, so the hot path is kept short: a run once seen initialised is not read again
 * before each append (a run is never un-initialised; a run directory removed from under the store makes the append
 * fail on the missing directory instead), and appends that queue up behind a write in flight go out together in the
 * next one (one open, write, fsync and close for all of them; each caller still resolves only once its line is on
 * disk, and a failed write fails every caller whose line it held).
 *
 * `read` keeps only an id → byte-offset index (≈100 bytes per row) and reads rows back with
 * positioned reads, so 100,000 rows of a few KB each stream in bounded memory. Lines that do not
 * parse (a write torn by a crash, whose batch the retry then wrote again) are skipped.
 */
export class FileResultsStore implements ResultsStore {
  private readonly appendQueues = new Map<string, AppendQueue>();
  /** Runs whose meta.json was seen: appends to them skip reading it again. */
  private readonly knownRuns = new Set<string>();
  private readonly labels: FileLabelStore;

  /** @param rootDir directory holding one sub-directory per run, and the labels file. @default 'runs' */
  constructor(readonly rootDir = 'runs') {
    this.labels = new FileLabelStore(rootDir);
  }

  /** Directory of one run; also the default place for its report files. */
  runDir(runId: string): string {
    if (runId === '' || runId === '.' || runId === '..') throw new TypeError(`run id \`${runId}\` is not usable`);
    return join(this.rootDir, encodeURIComponent(runId));
  }

  async init(runId: string, meta: RunMeta): Promise<void> {
    assertValidMeta(meta);
    if (meta.runId !== runId) throw new TypeError(`run meta: \`runId\` ${meta.runId} does not match ${runId}`);
    await mkdir(this.runDir(runId), { recursive: true });
    if ((await this.getMeta(runId)) === undefined) await writeFileAtomic(this.path(runId, 'meta'), JSON.stringify(meta, null, 2));
    this.knownRuns.add(runId);
  }

  async append(runId: string, results: readonly RowResult[]): Promise<void> {
    results.forEach((row, i) => assertValidRow(row, i));
    await this.appendRecords(runId, 'log', results);
  }

  async *read(runId: string): AsyncGenerator<RowResult> {
    const entries = await this.indexLog(runId);
    if (entries.length === 0) return;
    const handle = await open(this.path(runId, 'log'), 'r');
    try {
      for (let i = 0; i < entries.length; i += READ_BATCH) {
        const batch = entries.slice(i, i + READ_BATCH);
        const texts = await Promise.all(
          batch.map(async ({ offset, length }) => {
            const bytes = Buffer.alloc(length);
            await handle.read(bytes, 0, length, offset);
            return bytes.toString('utf8');
          }),
        );
        for (const text of texts) yield JSON.parse(text) as RowResult;
      }
    } finally {
      await handle.close();
    }
  }

  /** One pass over the run's log, keeping the last line of `rowId` (a torn line is skipped, as `read` skips it). */
  async getRow(runId: string, rowId: string): Promise<RowResult | undefined> {
    const path = this.path(runId, 'log');
    if (!(await stat(path).catch(() => undefined))) return undefined;
    let last: string | undefined;
    for await (const { text } of scanLines(path)) if (parseRow(text)?.id === rowId) last = text;
    return last === undefined ? undefined : (JSON.parse(last) as RowResult);
  }

  async getMeta(runId: string): Promise<RunMeta | undefined> {
    return (await readJsonIfExists(this.path(runId, 'meta'))) as RunMeta | undefined;
  }

  /** @throws CorruptRunFileError when summary.json is not JSON, or not a summary's shape (the fields listings read). */
  async getSummary(runId: string): Promise<RunSummary | undefined> {
    const path = this.path(runId, 'summary');
    let value: unknown;
    try {
      value = await readJsonIfExists(path);
    } catch (err) {
      if (err instanceof SyntaxError) throw new CorruptRunFileError(path, runId, `is not valid JSON (${err.message})`);
      throw err;
    }
    const problem = value === undefined ? undefined : summaryShapeProblem(value);
    if (problem) throw new CorruptRunFileError(path, runId, `is not a run summary: ${problem}`);
    return value as RunSummary | undefined;
  }

  async finish(runId: string, summary: RunSummary): Promise<void> {
    const meta = await this.requireRun(runId);
    await writeFileAtomic(this.path(runId, 'summary'), JSON.stringify(summary, null, 2));
    const finished: RunMeta = { ...meta, finishedAt: summary.finishedAt ?? new Date().toISOString() };
    await writeFileAtomic(this.path(runId, 'meta'), JSON.stringify(finished, null, 2));
  }

  async listRuns(filter?: RunFilter): Promise<RunMeta[]> {
    let names: string[];
    try {
      names = await readdir(this.rootDir);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    // A run whose meta.json does not parse (a disk filled up, a hand edit) is left out, not allowed to break every listing.
    const metas = await Promise.all(
      names.map(async (name) => (await readJsonIfExists(join(this.rootDir, name, StoreFile.meta)).catch(() => undefined)) as RunMeta | undefined),
    );
    return metas.filter((m): m is RunMeta => isMeta(m) && matchesFilter(m, filter)).sort(newestFirst);
  }

  async recordSessionFailures(runId: string, failures: readonly SessionCloseFailure[]): Promise<void> {
    failures.forEach((item, i) => assertValidSessionFailure(item, i));
    await this.appendRecords(runId, 'sessionFailures', failures.map(({ sessionId, error }) => ({ sessionId, error })));
  }

  async *readSessionFailures(runId: string): AsyncGenerator<SessionCloseFailure> {
    const path = this.path(runId, 'sessionFailures');
    if (!(await stat(path).catch(() => undefined))) return;
    const bySession = new Map<string, string>();
    for await (const { text } of scanLines(path)) {
      const item = parseJson(text) as Partial<SessionCloseFailure> | undefined;
      if (typeof item?.sessionId === 'string' && typeof item.error === 'string') bySession.set(item.sessionId, item.error);
    }
    for (const [sessionId, error] of bySession) yield { sessionId, error };
  }

  async recordSubmission(runId: string, submission: Submission): Promise<void> {
    assertValidSubmission(submission);
    await this.appendRecords(runId, 'submissions', [submission]);
  }

  // A scan of the run's file: lookups happen only on an activity's retry, rare next to the writes.
  async getSubmission(runId: string, rowId: string): Promise<Submission | undefined> {
    let found: Submission | undefined;
    for await (const item of this.scanSubmissions(runId)) if (item.rowId === rowId) found = item;
    return found;
  }

  async *readSubmissions(runId: string): AsyncGenerator<Submission> {
    const byRow = new Map<string, Submission>();
    for await (const item of this.scanSubmissions(runId)) byRow.set(item.rowId, item);
    yield* byRow.values();
  }

  private async *scanSubmissions(runId: string): AsyncGenerator<Submission> {
    const path = this.path(runId, 'submissions');
    if (!(await stat(path).catch(() => undefined))) return;
    for await (const { text } of scanLines(path)) {
      const item = parseJson(text) as Partial<Submission> | undefined;
      if (typeof item?.rowId === 'string' && typeof item.sends === 'number') yield item as Submission;
    }
  }

  async recordSettled(runId: string, marks: readonly SettleMark[]): Promise<void> {
    marks.forEach((item, i) => assertValidSettleMark(item, i));
    await this.appendRecords(runId, 'settled', marks);
  }

  // A scan of the run's file, like getSubmission: only a retried settle looks its rows up.
  async getSettled(runId: string, rowIds: readonly string[]): Promise<Map<string, SettleMark>> {
    const wanted = new Set(rowIds);
    const found = new Map<string, SettleMark>();
    const path = this.path(runId, 'settled');
    if (wanted.size === 0 || !(await stat(path).catch(() => undefined))) return found;
    for await (const { text } of scanLines(path)) {
      const item = parseJson(text) as Partial<SettleMark> | undefined;
      if (typeof item?.rowId === 'string' && wanted.has(item.rowId)) found.set(item.rowId, item as SettleMark);
    }
    return found;
  }

  async recordNotifications(runId: string, outcomes: readonly NotifyOutcome[]): Promise<void> {
    await mkdir(this.runDir(runId), { recursive: true });
    await writeFileAtomic(this.path(runId, 'notifications'), notificationsJson(outcomes));
  }

  async getNotifications(runId: string): Promise<NotifyOutcome[] | undefined> {
    const outcomes = await readJsonIfExists(this.path(runId, 'notifications'));
    return Array.isArray(outcomes) ? (outcomes as NotifyOutcome[]) : undefined;
  }

  putLabels(labels: readonly Label[]): Promise<void> {
    return this.labels.putLabels(labels);
  }

  getLabels(keys: readonly string[]): Promise<Map<string, Label>> {
    return this.labels.getLabels(keys);
  }

  readLabels(filter?: LabelFilter): AsyncIterable<Label> {
    return this.labels.readLabels(filter);
  }

  private path(runId: string, file: keyof typeof StoreFile): string {
    return join(this.runDir(runId), StoreFile[file]);
  }

  private async requireRun(runId: string): Promise<RunMeta> {
    const meta = await this.getMeta(runId);
    if (meta === undefined) throw new Error(`results store: run ${runId} was not initialised (no ${StoreFile.meta})`);
    this.knownRuns.add(runId);
    return meta;
  }

  /**
   * Records, already validated, as JSON lines at the end of one of a run's files; none writes nothing. Only the first
   * append per run reads meta.json (`requireRun`).
   */
  private async appendRecords(runId: string, file: keyof typeof StoreFile, records: readonly unknown[]): Promise<void> {
    if (records.length === 0) return;
    if (!this.knownRuns.has(runId)) await this.requireRun(runId);
    await this.appendLines(this.path(runId, file), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }

  /** Latest entry per id in dataset order; empty when nothing was appended yet. */
  private async indexLog(runId: string): Promise<LogEntry[]> {
    const path = this.path(runId, 'log');
    if (!(await stat(path).catch(() => undefined))) return [];
    const byId = new Map<string, LogEntry>();
    for await (const { offset, length, text } of scanLines(path)) {
      const row = parseRow(text);
      if (row) byId.set(row.id, { id: row.id, index: row.index, offset, length });
    }
    return [...byId.values()].sort((a, b) => a.index - b.index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Appends `text` to `path` after every earlier append to it from this process. Texts that arrive while a write is
   * in flight wait for it and then go out together in one write.
   */
  private appendLines(path: string, text: string): Promise<void> {
    let queue = this.appendQueues.get(path);
    if (!queue) {
      queue = { writing: false, waiting: [] };
      this.appendQueues.set(path, queue);
    }
    const done = new Promise<void>((resolve, reject) => (queue as AppendQueue).waiting.push({ text, resolve, reject }));
    if (!queue.writing) void this.writeQueued(path, queue);
    return done;
  }

  private async writeQueued(path: string, queue: AppendQueue): Promise<void> {
    queue.writing = true;
    while (queue.waiting.length > 0) {
      const batch = queue.waiting;
      queue.waiting = [];
      try {
        await appendDurably(path, batch.map((w) => w.text).join(''));
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    queue.writing = false;
    this.appendQueues.delete(path);
  }
}

/** Appends to one file waiting for the write in flight. */
interface AppendQueue {
  writing: boolean;
  waiting: { text: string; resolve: () => void; reject: (err: unknown) => void }[];
}

function isMeta(value: RunMeta | undefined): value is RunMeta {
  return typeof value === 'object' && value !== null && typeof value.runId === 'string' && typeof value.startedAt === 'string';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The id and index of a log line, or undefined for a torn or foreign line. */
function parseRow(text: string): Pick<RowResult, 'id' | 'index'> | undefined {
  try {
    const row = JSON.parse(text) as Partial<RowResult> | null;
    return typeof row?.id === 'string' && typeof row.index === 'number' ? { id: row.id, index: row.index } : undefined;
  } catch {
    return undefined;
  }
}
