/**
 * Workflow histories to and from their proto3 JSON form — the form of `temporal workflow show --output json` and of
 * the SDK's `historyToJSON` / `historyFromJSON`.
 *
 * Why not those SDK functions: with this project's lock file, @temporalio/common and @temporalio/proto each get a
 * copy of protobufjs 8 of their own (a protobufjs 7 for gRPC sits at the top), and the SDK's functions hand a message
 * type made by @temporalio/proto's copy to the JSON codec of @temporalio/common's copy, which refuses it ("type must
 * be a Type"). Loading the codec from the protobufjs that @temporalio/proto resolves keeps type and codec from one
 * copy, whatever the layout of node_modules.
 */
import { createRequire } from 'node:module';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type JsonObject = Record<string, unknown>;

interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): History | null;
}

const protojson = createRequire(require.resolve('@temporalio/proto'))('protobufjs/ext/protojson') as ProtoJson;
// @temporalio/proto is a reflection root: its message classes are protobufjs `Type`s the codec takes as they are.
const HistoryType = temporal.api.history.v1.History;

/**
 * A history as proto3 JSON text: what `historyToJSON` writes, without its indentation (a quarter of the size; fixtures
 * are kept forever, and nobody reads them by eye).
 */
export function historyToJson(history: History): string {
  return JSON.stringify(protojson.toJson(HistoryType, HistoryType.fromObject(history)));
}

/**
 * A history message from its proto3 JSON form (fields unknown to this SDK are ignored, so a newer server's history
 * still loads). Like `historyFromJSON`, it also accepts the older form whose enum values lack their prefix
 * (`"eventType": "WorkflowExecutionStarted"`).
 */
export function historyFromJson(json: unknown): History {
  const events = (json as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new TypeError('a history must be an object with an array `events`');
  const history = protojson.fromJson(HistoryType, { events: events.map((e) => withPrefixedEnums(e as JsonObject)) }, { ignoreUnknownFields: true });
  if (!history) throw new TypeError('not a workflow history');
  return history;
}

/** Enum fields of history events that older JSON histories wrote without their prefix. */
const EVENT_ENUMS: Record<string, string> = {
  parentClosePolicy: 'PARENT_CLOSE_POLICY', workflowIdReusePolicy: 'WORKFLOW_ID_REUSE_POLICY', initiator: 'CONTINUE_AS_NEW_INITIATOR', retryState: 'RETRY_STATE',
};

function prefixed(value: unknown, prefix: string): unknown {
  if (typeof value !== 'string' || value.startsWith(prefix)) return value;
  return `${prefix}_${value.replace(/(?!^)([A-Z])/g, '_$1').toUpperCase()}`;
}

function withPrefixedEnums(event: JsonObject): JsonObject {
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes'));
  if (!key) throw new TypeError(`a history event without attributes: ${JSON.stringify(event).slice(0, 200)}`);
  const attributes = { ...(event[key] as JsonObject) };
  for (const [field, prefix] of Object.entries(EVENT_ENUMS)) if (field in attributes) attributes[field] = prefixed(attributes[field], prefix);
  const queue = attributes.taskQueue as JsonObject | undefined;
  if (queue?.kind !== undefined) attributes.taskQueue = { ...queue, kind: prefixed(queue.kind, 'TASK_QUEUE_KIND') };
  const childFailure = attributes.childWorkflowExecutionFailureInfo as JsonObject | undefined;
  if (childFailure?.retryState !== undefined) {
    attributes.childWorkflowExecutionFailureInfo = { ...childFailure, retryState: prefixed(childFailure.retryState, 'RETRY_STATE') };
  }
  const eventType = event.eventType === undefined ? {} : { eventType: prefixed(event.eventType, 'EVENT_TYPE') };
  return { ...event, ...eventType, [key]: attributes };
}
