/**
 * Everything the bench reads from the workflow histories of one run: the parent and every chunk it started.
 * Event counts and sizes come from the server (describe), event types, activity attempts and billable actions from
 * the events themselves.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const T = temporal.api.enums.v1.EventType;

export interface HistoryInfo {
  workflowId: string;
  events: number;
  bytes: number;
  startMs: number;
  closeMs: number;
}

export interface RunHistories {
  workflows: HistoryInfo[];
  parent: HistoryInfo;
  totalEvents: number;
  totalBytes: number;
  largest: HistoryInfo;
  eventsByType: Record<string, number>;
  activitiesByType: Record<string, number>;
  /** Activity attempts after the first (ActivityTaskStarted.attempt − 1, summed), by activity type */
  retriesByType: Record<string, number>;
  /** Cloud actions visible in the histories, by kind (see BENCHMARKS.md for the rules) */
  actions: Record<string, number>;
  /**
   * Per activity type, ms after the run's start: first and last start (dispatch to a worker), last close. Where a
   * run spends its time: before the first question, submitting, and after the last question was sent.
   */
  timeline: Record<string, { count: number; firstStartMs: number; lastStartMs: number; lastCloseMs: number }>;
  /**
   * Per second since the run started: asks scheduled by the chunks, started (dispatched to the worker) and closed;
   * and each chunk's start and close (s). The raw material for "where did the time go".
   */
  series: { askScheduled: number[]; askStarted: number[]; askClosed: number[]; chunks: [number, number][] };
  /** Failed workflow tasks (the SDK retries them; each costs events): workflow, cause and message. */
  workflowTaskFailures: { workflowId: string; cause: string; message: string }[];
  /** Ask schedule-to-start (time in the task queue, ms): p50 / p95 / max. */
  askQueueMs?: { p50: number; p95: number; max: number };
  /** Asks started per whole second of the submit phase: min / median / max. */
  askStartsPerSecond?: { min: number; median: number; max: number; seconds: number };
  /** First to last row finished, from the settleRows activities' completion times (steady-state window). */
  firstFinishMs?: number;
  lastFinishMs?: number;
}

export function tsMs(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  if (!ts) return 0;
  return Number(String(ts.seconds ?? 0)) * 1000 + (ts.nanos ?? 0) / 1e6;
}

function typeName(e: HistoryEvent): string {
  return (T[e.eventType ?? 0] ?? String(e.eventType)).replace(/^EVENT_TYPE_/, '');
}

export async function collectHistories(client: Client, parentWorkflowId: string): Promise<RunHistories> {
  const eventsByType: Record<string, number> = {};
  const activitiesByType: Record<string, number> = {};
  const retriesByType: Record<string, number> = {};
  const actions: Record<string, number> = {};
  const add = (rec: Record<string, number>, key: string, n = 1): void => void (rec[key] = (rec[key] ?? 0) + n);
  const workflows: HistoryInfo[] = [];
  const workflowTaskFailures: RunHistories['workflowTaskFailures'] = [];
  const spans: { type: string; scheduledMs: number; startMs: number; closeMs: number }[] = [];
  let firstFinishMs: number | undefined;
  let lastFinishMs: number | undefined;

  const queue = [parentWorkflowId];
  while (queue.length > 0) {
    const workflowId = queue.shift() as string;
    const handle = client.workflow.getHandle(workflowId);
    const [desc, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
    const events = history.events ?? [];
    workflows.push({
      workflowId,
      events: desc.historyLength,
      bytes: desc.historySize ?? temporal.api.history.v1.History.encode(history).finish().length,
      startMs: tsMs(events[0]?.eventTime),
      closeMs: tsMs(events[events.length - 1]?.eventTime),
    });
    const scheduledType = new Map<number, string>();
    const started = new Map<number, { type: string; startMs: number; scheduledMs: number }>();
    const scheduledAt = new Map<number, number>();
    const markerTasks = new Set<string>();
    for (const e of events) {
      const type = typeName(e);
      add(eventsByType, type);
      switch (e.eventType) {
        case T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
          // A child's start is billed at the parent (two actions per child, below).
          if (!e.workflowExecutionStartedEventAttributes?.parentWorkflowExecution) add(actions, 'workflow started');
          break;
        case T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
          const name = e.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
          scheduledType.set(Number(String(e.eventId)), name);
          scheduledAt.set(Number(String(e.eventId)), tsMs(e.eventTime));
          add(activitiesByType, name);
          add(actions, 'activity started');
          break;
        }
        case T.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
          const a = e.activityTaskStartedEventAttributes;
          const retries = (a?.attempt ?? 1) - 1;
          const name = scheduledType.get(Number(String(a?.scheduledEventId))) ?? '?';
          started.set(Number(String(e.eventId)), { type: name, startMs: tsMs(e.eventTime), scheduledMs: scheduledAt.get(Number(String(a?.scheduledEventId))) ?? 0 });
          if (retries > 0) {
            add(retriesByType, name, retries);
            add(actions, 'activity retried', retries);
          }
          break;
        }
        case T.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
        case T.EVENT_TYPE_ACTIVITY_TASK_FAILED:
        case T.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT: {
          const attrs = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
          const span = started.get(Number(String(attrs?.startedEventId)));
          if (span) spans.push({ ...span, closeMs: tsMs(e.eventTime) });
          if (e.eventType !== T.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) break;
          const name = scheduledType.get(Number(String(e.activityTaskCompletedEventAttributes?.scheduledEventId)));
          // Rows are recorded with their feedback and closes, a batch per settleRows.
          if (name === 'settleRows') {
            const t = tsMs(e.eventTime);
            firstFinishMs = Math.min(firstFinishMs ?? t, t);
            lastFinishMs = Math.max(lastFinishMs ?? t, t);
          }
          break;
        }
        case T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED: {
          const childId = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
          if (childId) queue.push(childId);
          add(actions, 'child workflow (start + execution)', 2);
          break;
        }
        case T.EVENT_TYPE_WORKFLOW_TASK_FAILED: {
          const a = e.workflowTaskFailedEventAttributes;
          const cause = temporal.api.enums.v1.WorkflowTaskFailedCause[a?.cause ?? 0] ?? String(a?.cause);
          workflowTaskFailures.push({ workflowId, cause: cause.replace(/^WORKFLOW_TASK_FAILED_CAUSE_/, ''), message: (a?.failure?.message ?? '').slice(0, 300) });
          break;
        }
        case T.EVENT_TYPE_TIMER_STARTED:
          add(actions, 'timer started');
          break;
        case T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
          add(actions, 'signal sent (workflow → workflow)');
          break;
        case T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
          // Signals from another workflow were billed at the sender.
          if (!e.workflowExecutionSignaledEventAttributes?.externalWorkflowExecution) add(actions, 'signal sent (client)');
          break;
        case T.EVENT_TYPE_MARKER_RECORDED:
          // Local activities and side effects: one action per workflow task that records markers.
          markerTasks.add(String(e.markerRecordedEventAttributes?.workflowTaskCompletedEventId));
          break;
        case T.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
          add(actions, 'search attributes upserted');
          break;
        case T.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
          add(actions, 'continue-as-new');
          break;
        case T.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
          add(actions, 'update');
          break;
      }
    }
    if (markerTasks.size > 0) add(actions, 'markers (per workflow task)', markerTasks.size);
  }

  const parent = workflows[0] as HistoryInfo;
  const largest = workflows.reduce((a, b) => (b.events > a.events ? b : a));
  const timeline: RunHistories['timeline'] = {};
  for (const sp of spans) {
    const t = (timeline[sp.type] ??= { count: 0, firstStartMs: Infinity, lastStartMs: 0, lastCloseMs: 0 });
    t.count++;
    t.firstStartMs = Math.min(t.firstStartMs, Math.round(sp.startMs - parent.startMs));
    t.lastStartMs = Math.max(t.lastStartMs, Math.round(sp.startMs - parent.startMs));
    t.lastCloseMs = Math.max(t.lastCloseMs, Math.round(sp.closeMs - parent.startMs));
  }
  const asks = spans.filter((sp) => sp.type === 'ask');
  const askStarts = asks.map((sp) => sp.startMs - parent.startMs);
  const seconds = Math.ceil((parent.closeMs - parent.startMs) / 1000) + 1;
  const histogram = (times: number[]): number[] => {
    const out = new Array<number>(seconds).fill(0);
    for (const t of times) {
      const i = Math.max(0, Math.min(seconds - 1, Math.floor((t - parent.startMs) / 1000)));
      out[i] = (out[i] ?? 0) + 1;
    }
    return out;
  };
  const series: RunHistories['series'] = {
    askScheduled: histogram(asks.map((sp) => sp.scheduledMs)),
    askStarted: histogram(asks.map((sp) => sp.startMs)),
    askClosed: histogram(asks.map((sp) => sp.closeMs)),
    chunks: workflows.slice(1).map((w) => [Math.round((w.startMs - parent.startMs) / 100) / 10, Math.round((w.closeMs - parent.startMs) / 100) / 10]),
  };
  const waits = asks.map((sp) => sp.startMs - sp.scheduledMs).sort((a, b) => a - b);
  const pick = (q: number): number => Math.round(waits[Math.min(waits.length - 1, Math.floor(q * waits.length))] ?? 0);
  const askQueueMs = waits.length > 0 ? { p50: pick(0.5), p95: pick(0.95), max: Math.round(waits[waits.length - 1] ?? 0) } : undefined;
  return {
    workflows,
    parent,
    totalEvents: workflows.reduce((s, w) => s + w.events, 0),
    totalBytes: workflows.reduce((s, w) => s + w.bytes, 0),
    largest,
    timeline,
    series,
    workflowTaskFailures,
    askQueueMs,
    askStartsPerSecond: perSecond(askStarts),
    eventsByType,
    activitiesByType,
    retriesByType,
    actions,
    firstFinishMs,
    lastFinishMs,
  };
}

/** Counts per whole second between the first and the last timestamp (partial edge seconds dropped). */
function perSecond(times: number[]): RunHistories['askStartsPerSecond'] {
  if (times.length < 2) return undefined;
  const first = Math.min(...times);
  const buckets = new Map<number, number>();
  for (const t of times) buckets.set(Math.floor((t - first) / 1000), (buckets.get(Math.floor((t - first) / 1000)) ?? 0) + 1);
  const last = Math.max(...buckets.keys());
  const counts = Array.from({ length: Math.max(0, last - 1) }, (_, i) => buckets.get(i + 1) ?? 0).sort((a, b) => a - b);
  if (counts.length === 0) return undefined;
  return { min: counts[0] as number, median: counts[Math.floor(counts.length / 2)] as number, max: counts[counts.length - 1] as number, seconds: counts.length };
}
