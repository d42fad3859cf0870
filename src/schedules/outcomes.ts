import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { CleanupReport } from '../cleanup/types';
import type { RunResult } from '../domain/run';

/** What became of one run a schedule started, for `schedule describe`. */
export interface RecentRunOutcome {
  workflowId: string;
  /** The id `sitechat watch` and the runs directory use (the workflow id without its prefix and the time's colons). */
  runId: string;
  /** Temporal's status: RUNNING, COMPLETED, FAILED, CANCELLED, TERMINATED, TIMED_OUT, or GONE once history retention removed it. */
  status: string;
  /** An evaluation's gate verdict (`passed`, `failed`, `cancelled`, `no_threshold`), or a cleanup's counts. */
  verdict?: string;
  /** The report directory (evaluations) or file (cleanups) the worker wrote. */
  report?: string;
}

/** `sitechat-evaluation-nightly-2026-11-22T02:00:00Z` → `nightly-2026-11-22T020000Z`, as the run engine names it. */
export function runIdOf(workflowId: string): string {
  return workflowId.replace(/^sitechat-[a-z]+-/u, '').replace(/:/gu, '');
}

function isRunResult(value: unknown): value is RunResult {
  return typeof value === 'object' && value !== null && 'summary' in value && 'reportDir' in value;
}

function isCleanupReport(value: unknown): value is CleanupReport {
  return typeof value === 'object' && value !== null && 'counts' in value && 'reportId' in value;
}

/** One run's status and, when it completed, its verdict and report from the workflow's result. */
async function outcomeOf(client: Client, workflowId: string): Promise<RecentRunOutcome> {
  const handle = client.workflow.getHandle(workflowId);
  let status: string;
  try {
    status = (await handle.describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { workflowId, runId: runIdOf(workflowId), status: 'GONE' };
    throw err;
  }
  const outcome: RecentRunOutcome = { workflowId, runId: runIdOf(workflowId), status };
  if (status !== 'COMPLETED') return outcome;
  const result: unknown = await handle.result();
  if (isRunResult(result)) {
    return { ...outcome, runId: result.runId, verdict: result.cancelled ? 'cancelled' : result.summary.gate?.verdict, report: result.reportDir };
  }
  if (isCleanupReport(result)) {
    const c = result.counts;
    return { ...outcome, runId: result.reportId, verdict: `${c.closed} closed, ${c.failed} failed of ${c.matched} matched`, report: result.reportPath };
  }
  return outcome;
}

/** The outcomes of a schedule's recent runs, oldest first (one describe, and one result when completed, per run). */
export function recentOutcomes(client: Client, workflowIds: string[]): Promise<RecentRunOutcome[]> {
  return Promise.all(workflowIds.map((id) => outcomeOf(client, id)));
}
