/**
 * The cleanup's paging loop over injected ports: the workflow passes activity calls, unit tests pass an in-memory
 * list. Workflow-safe: no timers, no clocks, no Node imports.
 */
import { nextPageInput, nextStep, recordClose, startPass, takePage } from './cursor';
import type { ResolvedCleanupSettings } from './rule';
import { StopReason, type CleanupCursor, type CleanupInput, type CleanupPage, type CleanupPageInput, type CloseFailure } from './types';

export interface CleanupPorts {
  /** One list call (an activity on the list queue). */
  list(input: CleanupPageInput): Promise<CleanupPage>;
  /** Closes one batch (an activity on the close queue); failures are reported, not thrown. */
  close(sessionIds: string[]): Promise<{ closed: number; failed: CloseFailure[] }>;
  /** Called before each page with the pages listed so far in this run; the workflow continues as new from here. */
  beforePage?(pagesThisRun: number): Promise<void>;
  /** True once a cancel was requested: the loop stops before the next page. */
  cancelled?(): boolean;
}

/** Close batches in flight at once: one can start while the other finishes. @default 2 */
export const CLOSE_LANES = 2;

/** A reason no other session can get past (bad key, plan, unknown site): the cleanup stops. */
export class FatalCloseError extends Error {
  override name = 'FatalCloseError';
}

/** Pages through the list, closing as it goes; returns why it stopped early, or undefined when the list was exhausted. */
export async function pageThrough(
  input: CleanupInput, cursor: CleanupCursor, settings: ResolvedCleanupSettings, ports: CleanupPorts,
): Promise<StopReason | undefined> {
  for (let pagesThisRun = 0; ; pagesThisRun++) {
    if (ports.cancelled?.() === true) return StopReason.cancelled;
    await ports.beforePage?.(pagesThisRun);
    const page = await ports.list(nextPageInput(input, cursor, settings));
    const ids = takePage(cursor, page, settings);
    await closeAll(ids, cursor, settings.closeBatchSize, ports);
    const step = nextStep(cursor, page, settings);
    if (step === 'done') return undefined;
    if (step === 'relist') startPass(cursor);
    else if (step !== 'page') return step;
  }
}

async function closeAll(ids: string[], cursor: CleanupCursor, batchSize: number, ports: CleanupPorts): Promise<void> {
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += batchSize) batches.push(ids.slice(i, i + batchSize));
  let next = 0;
  let fatal: string | undefined;
  const lane = async (): Promise<void> => {
    while (next < batches.length && fatal === undefined) {
      const result = await ports.close(batches[next++] as string[]);
      fatal ??= recordClose(cursor, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CLOSE_LANES, batches.length) }, lane));
  if (fatal !== undefined) throw new FatalCloseError(`closing sessions failed: ${fatal}`);
}
