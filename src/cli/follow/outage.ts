/**
 * A Temporal server that stops answering while a run is followed: the run itself goes on (its state is on the
 * server, its work on the workers), so the CLI says so once, keeps trying, and says when it is back.
 */
import type { Logger } from '../logger';

/**
 * gRPC UNAVAILABLE: no connection. Not DEADLINE_EXCEEDED: a query also runs out of time when no worker answers,
 * which says nothing about the server.
 */
const UNAVAILABLE = 14;

/** True when `err` (or a cause of it) says the server could not be reached, not that it refused the call. */
export function isUnreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === UNAVAILABLE || /^14 UNAVAILABLE\b/u.test(e.message)) return true;
  }
  return false;
}

/** Tells the user once when Temporal goes away and once when it is back. */
export class OutageNotice {
  private downSince: number | undefined;

  constructor(private readonly log: Logger, private readonly workflowId: string) {}

  get down(): boolean {
    return this.downSince !== undefined;
  }

  lost(err: unknown): void {
    if (this.downSince !== undefined) return;
    this.downSince = Date.now();
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    this.log.warn(`Temporal is unreachable (${why}); the run goes on on its workers — reconnecting, Ctrl-C leaves (npx sitechat watch ${this.workflowId})`);
  }

  back(): void {
    if (this.downSince === undefined) return;
    this.log.info(`reconnected to Temporal after ${Math.round((Date.now() - this.downSince) / 1000)} s; following the run again`);
    this.downSince = undefined;
  }
}
