/**
 * Fetches the histories of a finished workflow: every run of its continue-as-new chain and, recursively, every child
 * it started, so each workflow type that ran is recorded.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Payload = temporal.api.common.v1.IPayload;

export interface CollectedHistory {
  workflowType: string;
  workflowId: string;
  runId: string;
  /** 1-based place in its workflow id's continue-as-new chain, and the chain's length. */
  run: number;
  runs: number;
  history: History;
}

/** The SDK records each `patched(id)` as a marker of this name; its `patch-data` payload holds the id. */
const PATCH_MARKER = 'core_patch';

/** Every history of the workflow started as `root` (its chain and its children's), parents before children. */
export async function collectHistories(client: Client, root: { workflowId: string; runId: string }): Promise<CollectedHistory[]> {
  const found: Omit<CollectedHistory, 'run' | 'runs'>[] = [];
  const queue = [root];
  const seen = new Set<string>();
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (seen.has(next.runId)) continue;
    seen.add(next.runId);
    const history = await client.workflow.getHandle(next.workflowId, next.runId).fetchHistory();
    const events = history.events ?? [];
    const workflowType = events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
    if (!workflowType) throw new Error(`history of ${next.workflowId} (run ${next.runId}) does not start with WorkflowExecutionStarted`);
    found.push({ workflowType, workflowId: next.workflowId, runId: next.runId, history });
    const continued = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    if (continued) queue.push({ workflowId: next.workflowId, runId: continued });
    for (const child of childrenOf(events)) queue.push(child);
  }
  return found.map((h) => {
    const chain = found.filter((o) => o.workflowId === h.workflowId);
    return { ...h, run: chain.indexOf(h) + 1, runs: chain.length };
  });
}

function childrenOf(events: HistoryEvent[]): { workflowId: string; runId: string }[] {
  return events.flatMap((e) => {
    const execution = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
    return execution?.workflowId && execution.runId ? [{ workflowId: execution.workflowId, runId: execution.runId }] : [];
  });
}

/**
 * The history as text with every payload decoded, so a secret in any payload can be searched for. Messages the
 * client returns serialize their bytes as base64 (their own `toJSON` runs before a replacer sees them): payload data
 * and metadata values are decoded from either form.
 */
export function decodedText(history: History): string {
  const utf8 = (value: unknown): unknown =>
    value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value;
  return JSON.stringify(history, (key, value: unknown) => {
    if (value instanceof Uint8Array || (key === 'data' && typeof value === 'string')) return utf8(value);
    if (key === 'metadata' && typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, utf8(v)]));
    return value;
  });
}

/**
 * Every `payloads` list of a history's events, as the SDK hands each to the payload codec (an input, a result, a
 * signal's arguments …). The patch markers are left out: the SDK's core writes them itself, past the codec.
 */
export function payloadGroupsIn(history: History): Payload[][] {
  const groups: Payload[][] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
      const { payloads } = value as { payloads?: unknown };
      if (Array.isArray(payloads)) groups.push(payloads as Payload[]);
      else for (const v of Object.values(value)) walk(v);
    }
  };
  walk((history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName !== PATCH_MARKER));
  return groups;
}

/** Ids of the `patched()` markers a history holds, in order. */
export function patchesIn(history: History): string[] {
  const ids = (history.events ?? []).flatMap((e) => {
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== PATCH_MARKER) return [];
    const data = marker.details?.['patch-data']?.payloads?.[0]?.data;
    if (!data) return [];
    const decoded = JSON.parse(Buffer.from(data).toString('utf8')) as { id?: string } | string;
    return [typeof decoded === 'string' ? decoded : decoded.id ?? ''];
  });
  return [...new Set(ids)];
}

/**
 * The most children a history had open at once: initiated and not yet closed (completed, failed, cancelled,
 * terminated, timed out) or refused.
 */
export function peakOpenChildren(history: History): number {
  let open = 0;
  let peak = 0;
  for (const e of history.events ?? []) {
    if (e.startChildWorkflowExecutionInitiatedEventAttributes) open += 1;
    if (
      e.childWorkflowExecutionCompletedEventAttributes || e.childWorkflowExecutionFailedEventAttributes ||
      e.childWorkflowExecutionCanceledEventAttributes || e.childWorkflowExecutionTerminatedEventAttributes ||
      e.childWorkflowExecutionTimedOutEventAttributes || e.startChildWorkflowExecutionFailedEventAttributes
    ) open -= 1;
    peak = Math.max(peak, open);
  }
  return peak;
}

/** Activity types a history scheduled, each once. */
export function activityTypesIn(history: History): string[] {
  return [...new Set((history.events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []))];
}

/** How many activities of `type` a history scheduled. */
export function activitiesScheduled(history: History, type: string): number {
  return (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type).length;
}
