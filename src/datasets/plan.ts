/**
 * The work plan: a validated dataset grouped into conversations (WorkUnits), written as JSONL with
 * a page index, so a workflow can read one page of units at a time.
 *
 * Order: single-row units are written as their rows stream by (memory stays bounded however long
 * the file); rows with a `conversation` (or sharing a `session_id` without one: conversationKey.ts)
 * are held until the end of the file, then written as one unit each, in order of their first row.
 * So with conversations, units are not in strict file order; each row's `index` keeps its dataset
 * position for reports. Inside a conversation, rows are ordered by `turn` when given, else by file
 * order, and rows without a `session_id` take the conversation's one. With `repeat` > 1 each unit is written that many times in a row (src/datasets/repeat.ts), and
 * `rows` counts every repeat.
 */
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { conversationKeyOf } from './conversationKey';
import { DatasetChangedError, DatasetValidationError } from './issues';
import { PlanWriter } from './planWriter';
import { MAX_REPEAT, REPEAT_SUFFIX, repeatUnit } from './repeat';
import type { DatasetRow, WorkUnit } from '../domain/dataset';
import { walkDataset, type DatasetReadOptions } from './walk';

export const PLAN_FILE = 'plan.jsonl';
export const PLAN_INDEX_FILE = 'plan-index.json';

export interface WorkPlanOptions extends Omit<DatasetReadOptions, 'maxIssues'> {
  /** Units per page. */
  pageSize: number;
  /** When given, the dataset's sha256 must equal it (the file the run was started with). */
  expectedSha256?: string;
  /** Every conversation this many times, each repeat its own rows and session (src/datasets/repeat.ts). @default 1 */
  repeat?: number;
}

/** The plan's summary: small and JSON-safe, fit for workflow history. */
export interface WorkPlanInfo {
  sha256: string;
  rows: number;
  units: number;
  pages: number;
  pageSize: number;
  planDir: string;
}

/** `plan-index.json`: byte ranges of the pages of `plan.jsonl`. */
export interface WorkPlanIndex extends Omit<WorkPlanInfo, 'planDir'> {
  version: 1;
  dataset: string;
  /** Byte offset where each page starts; page p ends where p + 1 starts, the last at `bytes`. */
  offsets: number[];
  bytes: number;
}

/**
 * Validates the dataset in one streaming pass (throws `DatasetChangedError` on a sha256 mismatch,
 * else `DatasetValidationError` with every issue) and writes `plan.jsonl` + `plan-index.json`
 * into `planDir`. Rebuilding is repeatable: same file, same plan.
 */
export async function buildWorkPlan(datasetPath: string, planDir: string, options: WorkPlanOptions): Promise<WorkPlanInfo> {
  const { pageSize } = options;
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a whole number >= 1, got ${pageSize}`);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) throw new RangeError(`repeat must be a whole number from 1 to ${MAX_REPEAT}, got ${repeat}`);
  await mkdir(planDir, { recursive: true });
  const planPath = join(planDir, PLAN_FILE);
  const writer = await PlanWriter.open(`${planPath}.tmp`, pageSize);
  // A unit's repeats are written one after the other: memory holds one unit whatever N.
  const writeRepeats = async (unit: WorkUnit): Promise<void> => {
    for (let r = 1; r <= repeat; r++) await writer.write(repeatUnit(unit, r, repeat));
  };
  const conversations = new Map<string, DatasetRow[]>();
  try {
    const scan = await walkDataset(datasetPath, options, async (row) => {
      // `x#r2` in the dataset would be the id of the second repeat of `x`.
      if (repeat > 1 && REPEAT_SUFFIX.test(row.id)) {
        const message = `id ${JSON.stringify(row.id)} ends like a repeat's id (#r<number>): rename it to run with --repeat`;
        throw new DatasetValidationError(datasetPath, [{ file: datasetPath, line: row.line, column: 'id', message }], 1);
      }
      const key = conversationKeyOf(row);
      if (key === undefined) await writeRepeats({ key: `row:${row.id}`, rows: [row] });
      else {
        const rows = conversations.get(key);
        if (rows === undefined) conversations.set(key, [row]);
        else rows.push(row);
      }
    });
    if (options.expectedSha256 !== undefined && scan.sha256 !== options.expectedSha256) {
      throw new DatasetChangedError(datasetPath, options.expectedSha256, scan.sha256);
    }
    if (scan.issueCount > 0) throw new DatasetValidationError(datasetPath, scan.issues, scan.issueCount);
    for (const [key, rows] of conversations) await writeRepeats({ key, rows: orderConversation(rows) });
    const { offsets, bytes, units } = await writer.close();
    const index: WorkPlanIndex = {
      version: 1, dataset: datasetPath, sha256: scan.sha256, rows: scan.rows * repeat, units, pages: offsets.length, pageSize, offsets, bytes,
    };
    await rename(`${planPath}.tmp`, planPath);
    await writeFile(join(planDir, `${PLAN_INDEX_FILE}.tmp`), JSON.stringify(index));
    await rename(join(planDir, `${PLAN_INDEX_FILE}.tmp`), join(planDir, PLAN_INDEX_FILE));
    return { sha256: scan.sha256, rows: index.rows, units, pages: index.pages, pageSize, planDir };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Reads `plan-index.json`. */
export async function readWorkPlanIndex(planDir: string): Promise<WorkPlanIndex> {
  return JSON.parse(await readFile(join(planDir, PLAN_INDEX_FILE), 'utf8')) as WorkPlanIndex;
}

/** Reads one page (0-based) of units, touching only that page's bytes. */
export async function readWorkPage(planDir: string, page: number): Promise<WorkUnit[]> {
  const index = await readWorkPlanIndex(planDir);
  const start = index.offsets[page];
  if (!Number.isInteger(page) || start === undefined) {
    throw new RangeError(`page ${page} is out of range: the plan in ${planDir} has ${index.pages} page${index.pages === 1 ? '' : 's'}`);
  }
  const end = index.offsets[page + 1] ?? index.bytes;
  const handle = await open(join(planDir, PLAN_FILE), 'r');
  try {
    const buffer = Buffer.alloc(end - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n');
    return lines.filter((line) => line !== '').map((line) => JSON.parse(line) as WorkUnit);
  } finally {
    await handle.close();
  }
}

/** Turn order when every row has a turn (validation ensures all or none), and one session_id. */
function orderConversation(rows: DatasetRow[]): DatasetRow[] {
  const ordered = rows.every((r) => r.turn !== undefined) ? [...rows].sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0)) : rows;
  const sessionId = rows.find((r) => r.session_id !== undefined)?.session_id;
  return sessionId === undefined ? ordered : ordered.map((r) => (r.session_id === undefined ? { ...r, session_id: sessionId } : r));
}

/** Removes a plan directory's files (e.g. after a run finished). */
export async function removeWorkPlan(planDir: string): Promise<void> {
  await rm(join(planDir, PLAN_FILE), { force: true });
  await rm(join(planDir, PLAN_INDEX_FILE), { force: true });
}
