/**
 * A results store the workers cannot reach while a run is followed: their store activities wait it out (retried,
 * nothing lost), and the CLI says so from what Temporal knows of those activities — the workers', not its own view.
 */
import type { Client } from '@temporalio/client';
import type { RunProgress } from '../../workflows/types';
import type { Logger } from './logger';

/** The failure type a store activity retries with while the store cannot be reached (activities/storeOutage.ts). */
const STORE_UNAVAILABLE = 'StoreUnavailableError';

/** How often the run's workflows are described: a few calls each time, so not at every progress tick. @default 5000 */
const CHECK_EVERY_MS = 5_000;

/** Pending activities of `workflowIds` whose last attempt failed because the store was unreachable; their last message. */
export async function storeWaits(client: Client, workflowIds: readonly string[]): Promise<string[]> {
  const described = await Promise.all(workflowIds.map((id) => client.workflow.getHandle(id).describe().catch(() => undefined)));
  return described.flatMap((d) => (d?.raw.pendingActivities ?? [])
    .filter((a) => a.lastFailure?.applicationFailureInfo?.type === STORE_UNAVAILABLE)
    .map((a) => a.lastFailure?.message ?? STORE_UNAVAILABLE));
}

/** Tells the user once when the workers lose the results store and once when it is back; marks the progress meanwhile. */
export class StoreOutageNotice {
  private since: number | undefined;
  private checkedAt = 0;
  private checking: Promise<void> | undefined;

  constructor(private readonly client: Client, private readonly log: Logger, private readonly everyMs = CHECK_EVERY_MS) {}

  /** The progress with `storeUnreachableSince` while an outage lasts; checks Temporal in the background at most every `everyMs`. */
  mark(p: RunProgress): RunProgress {
    const now = Date.now();
    if (!this.checking && now - this.checkedAt >= this.everyMs && p.workflows?.length) {
      this.checkedAt = now;
      this.checking = storeWaits(this.client, p.workflows).then((waits) => this.update(waits), () => undefined).finally(() => (this.checking = undefined));
    }
    return this.since === undefined ? p : { ...p, storeUnreachableSince: this.since };
  }

  private update(waits: string[]): void {
    if (waits.length > 0 && this.since === undefined) {
      this.since = Date.now();
      const why = (waits[0] ?? '').split(' — ')[0];
      this.log.warn(`the workers cannot reach the results store (${why}); ${waits.length} activit${waits.length === 1 ? 'y is' : 'ies are'} waiting for it and the run goes on when it is back — nothing is lost or asked twice`);
    } else if (waits.length === 0 && this.since !== undefined) {
      this.log.info(`the results store is reachable again after ${Math.round((Date.now() - this.since) / 1000)} s; the run goes on`);
      this.since = undefined;
    }
  }

  /** Waits for a check in progress (before the command exits). */
  async settle(): Promise<void> {
    await this.checking;
  }
}
