import { isAbsolute } from 'node:path';
import type { ScheduleOptions } from '@temporalio/client';
import { CLEANUP_WORKFLOW_PREFIX, CLEANUP_WORKFLOW_TYPE } from '../cleanup/workflow';
import type { CleanupInput } from '../cleanup/types';
import { TaskQueue } from '../temporal/taskQueues';
import { startWorkflowAction, type WorkflowName } from '../../workflows/starts';
import { MULTI_SITE_WORKFLOW_TYPE } from '../../workflows/multiSiteSignals';
import type { RunOptions } from '../domain/run';
import { checkScheduleId, schedulePolicies, ScheduleUsageError, type SchedulePolicyFlags } from './policy';

/** What a sitechat schedule starts. */
export const ScheduleKind = { nightly: 'nightly', cleanup: 'cleanup' } as const;
export type ScheduleKind = (typeof ScheduleKind)[keyof typeof ScheduleKind];

/** Workflow type of nightly runs (exported as `evaluationRun` by workflows/index.ts). */
export const EVALUATION_WORKFLOW_TYPE = 'evaluationRun' satisfies WorkflowName;
/**
 * Workflow id prefix of evaluation runs. Temporal appends the scheduled time to a schedule's workflow id, and the run
 * engine derives the run id from it (`sitechat-evaluation-nightly-2026-11-22T02:00:00Z` → `nightly-2026-11-22T020000Z`).
 */
export const EVALUATION_WORKFLOW_PREFIX = 'sitechat-evaluation-';

/** Memo of schedules created by sitechat: what `schedule list` shows without decoding the action's arguments. */
export interface SitechatMemo {
  kind: ScheduleKind;
  cron: string;
  timezone?: string;
  siteId: string;
  dataset?: string;
}
export const MEMO_KEY = 'sitechat';

function withMemo(kind: ScheduleKind, id: string, flags: SchedulePolicyFlags, siteId: string, dataset?: string) {
  const base = schedulePolicies(flags);
  const memo: SitechatMemo = { kind, cron: flags.cron.trim(), siteId, ...(flags.timezone ? { timezone: flags.timezone } : {}), ...(dataset ? { dataset } : {}) };
  return { scheduleId: checkScheduleId(id), ...base, memo: { [MEMO_KEY]: memo } };
}

/**
 * A nightly evaluation: starts `evaluationRun` on the main queue with a fixed RunInput. `runId` and the dataset's
 * sha256 stay empty: each run takes its id from its workflow id and pins the file when its plan is built. The
 * dataset path must be absolute, as the workers see it. No API key: workers hold it.
 */
export function nightlySchedule(id: string, datasetPath: string, options: RunOptions, flags: SchedulePolicyFlags): ScheduleOptions {
  if (!isAbsolute(datasetPath)) throw new ScheduleUsageError(`--dataset must resolve to an absolute path (as the workers see it), got ${datasetPath}`);
  const dataset = { path: datasetPath, sha256: '' };
  // `--site a,b,c` (checked by the run flags' validation): one multi-site run per firing, each site with its own report.
  const sites = options.siteId.split(',').map((s) => s.trim());
  const common = { taskQueue: TaskQueue.main, workflowId: `${EVALUATION_WORKFLOW_PREFIX}${id}` };
  const action = sites.length > 1
    ? startWorkflowAction(MULTI_SITE_WORKFLOW_TYPE, { ...common, args: [{ kind: 'evaluation', runId: '', dataset, sites, options: { ...options, outDir: undefined } }] })
    : startWorkflowAction(EVALUATION_WORKFLOW_TYPE, { ...common, args: [{ kind: 'evaluation', runId: '', dataset, options: { ...options, outDir: undefined } }] });
  return { ...withMemo(ScheduleKind.nightly, id, flags, options.siteId, datasetPath), action };
}

/** A recurring session cleanup: starts `sessionCleanup`; an idle time is measured from each run's own start. */
export function cleanupSchedule(id: string, input: CleanupInput, flags: SchedulePolicyFlags): ScheduleOptions {
  return {
    ...withMemo(ScheduleKind.cleanup, id, flags, input.siteId),
    action: startWorkflowAction(CLEANUP_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `${CLEANUP_WORKFLOW_PREFIX}${id}`, args: [input] }),
  };
}
