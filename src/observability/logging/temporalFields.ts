import type { LogFields } from './jsonLine';

/**
 * `sitechat-evaluation-nightly-2026-11-22T02:00:00Z` → `nightly-2026-11-22T020000Z` (as `schedules/outcomes.runIdOf`);
 * a run's child workflows (`<run's workflow id>/chunk-3`) belong to the same run.
 */
function sitechatRunId(workflowId: string): string | undefined {
  if (!workflowId.startsWith('sitechat-')) return undefined;
  return workflowId.split('/')[0]?.replace(/^sitechat-[a-z]+-/u, '').replace(/:/gu, '');
}

/** Meta keys of the SDK's log entries that carry nothing for a reader (an opaque token) or repeat another field. */
const DROPPED = new Set(['taskToken', 'isLocal', 'sdkComponent', 'runId', 'workflowRunId', 'activityType', 'workflowType', 'siteId']);

/**
 * The fields of a JSON log line from a Temporal SDK log entry's meta: which workflow and activity logged it (the SDK
 * puts them there for workflow and activity loggers), the sitechat run id its workflow id names, and the site when the
 * caller gave one (`site` or `siteId`).
 */
export function temporalLogFields(meta: Record<string, unknown> | undefined): LogFields {
  if (meta === undefined) return {};
  const fields: LogFields = {};
  const workflowId = typeof meta.workflowId === 'string' ? meta.workflowId : undefined;
  const runId = workflowId === undefined ? undefined : sitechatRunId(workflowId);
  if (runId !== undefined) fields.runId = runId;
  if (typeof meta.sdkComponent === 'string') fields.component = meta.sdkComponent;
  fields.temporalRunId = meta.workflowRunId ?? meta.runId;
  fields.workflow = meta.workflowType;
  fields.activity = meta.activityType;
  fields.site = meta.site ?? meta.siteId;
  for (const [key, value] of Object.entries(meta)) if (!DROPPED.has(key) && !(key in fields)) fields[key] = value;
  return fields;
}
