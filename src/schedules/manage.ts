import {
  ScheduleAlreadyRunning, ScheduleNotFoundError, type Client, type ScheduleDescription, type ScheduleExecutionResult,
  type ScheduleOptions, type ScheduleOverlapPolicy, type ScheduleSummary,
} from '@temporalio/client';
import { MEMO_KEY, type ScheduleKind, type SitechatMemo } from './build';
import { recentOutcomes, type RecentRunOutcome } from './outcomes';
import { ScheduleUsageError } from './policy';

/** gRPC INVALID_ARGUMENT: the server refused the schedule's definition (e.g. a cron minute of 99). */
const INVALID_ARGUMENT = 3;

function invalidArgument(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === INVALID_ARGUMENT) return true;
  }
  return false;
}

/** What `schedule list` shows of one schedule. */
export interface ScheduleView {
  id: string;
  kind?: ScheduleKind;
  cron?: string;
  timezone?: string;
  siteId?: string;
  dataset?: string;
  workflowType?: string;
  paused: boolean;
  note?: string;
  nextRuns: string[];
  recentRuns: { workflowId: string; scheduledAt: string; takenAt: string }[];
}

/** What `schedule describe` adds: the action's input, the policies and the counters. */
export interface ScheduleDetails extends ScheduleView {
  taskQueue?: string;
  workflowId?: string;
  input?: unknown;
  overlap: string;
  catchupWindowMs: number;
  pauseOnFailure: boolean;
  actionsTaken: number;
  skippedOverlap: number;
  missedCatchup: number;
  running: string[];
  createdAt: string;
  /** The last runs' ids, statuses, verdicts and reports (by `describeWithOutcomes`), oldest first. */
  recentOutcomes?: RecentRunOutcome[];
}

/** How many of a schedule's recent runs `describe` looks up. */
const RECENT_SHOWN = 5;

/** A schedule operation that failed for a reason the user can act on (exit code 3). */
export class ScheduleOperationError extends Error {
  override name = 'ScheduleOperationError';
}

function recent(actions: ScheduleExecutionResult[]): ScheduleView['recentRuns'] {
  return actions.map((a) => ({ workflowId: a.action.workflow.workflowId, scheduledAt: a.scheduledAt.toISOString(), takenAt: a.takenAt.toISOString() }));
}

function viewOf(s: ScheduleSummary | ScheduleDescription): ScheduleView {
  const memo = s.memo?.[MEMO_KEY] as SitechatMemo | undefined;
  return {
    id: s.scheduleId, kind: memo?.kind, cron: memo?.cron, timezone: memo?.timezone, siteId: memo?.siteId, dataset: memo?.dataset,
    workflowType: s.action?.workflowType, paused: s.state.paused, note: s.state.note || undefined,
    // A paused schedule starts nothing: the times Temporal still computes would mislead.
    nextRuns: s.state.paused ? [] : s.info.nextActionTimes.slice(0, 3).map((d) => d.toISOString()), recentRuns: recent(s.info.recentActions),
  };
}

async function guard<T>(id: string, namespace: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) throw new ScheduleOperationError(`no schedule "${id}" in namespace ${namespace} (see: npx sitechat schedule list)`);
    if (err instanceof ScheduleAlreadyRunning) throw new ScheduleOperationError(`schedule "${id}" exists already: delete it first, or pick another --id`);
    if (invalidArgument(err)) throw new ScheduleUsageError(`Temporal refused schedule "${id}": ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
}

/** Schedule operations with errors in plain words. */
export class Schedules {
  constructor(private readonly client: Client) {}

  private get namespace(): string {
    return this.client.options.namespace;
  }

  async create(options: ScheduleOptions): Promise<ScheduleDetails> {
    await guard(options.scheduleId, this.namespace, async () => {
      try {
        return await this.client.schedule.create(options);
      } catch (err) {
        // The SDK turns the server's "Invalid schedule spec" (e.g. a cron minute of 99) into a TypeError.
        if (err instanceof TypeError) throw new ScheduleUsageError(`Temporal refused the schedule's timing: ${err.message}`);
        throw err;
      }
    });
    return this.describe(options.scheduleId);
  }

  /** Every schedule of the namespace (listing is eventually consistent: a new schedule shows after a moment). */
  async list(): Promise<ScheduleView[]> {
    const out: ScheduleView[] = [];
    for await (const s of this.client.schedule.list()) out.push(viewOf(s));
    return out.sort((a, b) => a.id.localeCompare(b.id));
  }

  async describe(id: string): Promise<ScheduleDetails> {
    const d = await guard(id, this.namespace, () => this.client.schedule.getHandle(id).describe());
    return {
      ...viewOf(d),
      taskQueue: d.action.taskQueue, workflowId: d.action.workflowId, input: d.action.args?.[0],
      overlap: d.policies.overlap ?? 'SKIP', catchupWindowMs: d.policies.catchupWindow, pauseOnFailure: d.policies.pauseOnFailure,
      actionsTaken: d.info.numActionsTaken, skippedOverlap: d.info.numActionsSkippedOverlap, missedCatchup: d.info.numActionsMissedCatchupWindow,
      running: d.info.runningActions.map((a) => a.workflow.workflowId), createdAt: d.info.createdAt.toISOString(),
    };
  }

  /** {@link describe} plus what became of the last runs: what `sitechat schedule describe` shows. */
  async describeWithOutcomes(id: string): Promise<ScheduleDetails> {
    const details = await this.describe(id);
    return { ...details, recentOutcomes: await recentOutcomes(this.client, details.recentRuns.slice(-RECENT_SHOWN).map((r) => r.workflowId)) };
  }

  async pause(id: string, note?: string): Promise<void> {
    await guard(id, this.namespace, () => this.client.schedule.getHandle(id).pause(note ?? 'paused with sitechat schedule pause'));
  }

  async unpause(id: string, note?: string): Promise<void> {
    await guard(id, this.namespace, () => this.client.schedule.getHandle(id).unpause(note ?? 'unpaused with sitechat schedule unpause'));
  }

  async delete(id: string): Promise<void> {
    await guard(id, this.namespace, () => this.client.schedule.getHandle(id).delete());
  }

  /**
   * Takes the action now and waits (up to `waitMs`) to see what happened: the workflow id of the run it started, or
   * `skipped` when the overlap policy skipped it because a run is still going.
   */
  async trigger(id: string, overlap?: ScheduleOverlapPolicy, waitMs = 10_000): Promise<{ workflowId?: string; skipped: boolean }> {
    const before = await this.describe(id);
    await guard(id, this.namespace, () => this.client.schedule.getHandle(id).trigger(overlap));
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      const now = await this.describe(id);
      if (now.actionsTaken > before.actionsTaken) return { workflowId: now.recentRuns.at(-1)?.workflowId, skipped: false };
      if (now.skippedOverlap > before.skippedOverlap) return { skipped: true };
      await new Promise((r) => setTimeout(r, 200));
    }
    return { skipped: false };
  }
}
