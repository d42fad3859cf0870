import { resolve } from 'node:path';
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { TaskQueue } from '../temporal/taskQueues';
import { MULTI_SITE_WORKFLOW_TYPE, multiSiteQuery, siteRunId } from '../../workflows/multiSiteSignals';
import type { MultiSiteInput } from '../../workflows/multiSiteTypes';
import { progressQuery } from '../../workflows/signals';
import { emptyCounts, type RunOptions, type RunProgress } from '../../workflows/types';
import { ExitCode, followRun } from './follow';
import type { Logger } from './logger';
import type { Runtime } from './runtime';
import { parseSiteList } from './siteList';

/** Which phase a combined progress shows: the busiest any site is in. */
const PHASE_ORDER: RunProgress['phase'][] = ['running', 'preparing', 'finishing', 'done'];

/**
 * The progress of several sites' runs as one: counts, totals and in-flight added up, throughput over the whole run.
 * `sites` is how many there are, so a site whose run has not answered yet keeps the phase at `preparing`.
 */
export function combineProgress(runId: string, parts: readonly RunProgress[], sites: number): RunProgress {
  const counts = emptyCounts();
  for (const p of parts) for (const [k, v] of Object.entries(p.counts) as [keyof typeof counts, number][]) counts[k] += v;
  const sum = (pick: (p: RunProgress) => number): number => parts.reduce((n, p) => n + pick(p), 0);
  const startedAt = parts.length > 0 ? Math.min(...parts.map((p) => p.startedAt)) : Date.now();
  const updatedAt = parts.length > 0 ? Math.max(...parts.map((p) => p.updatedAt)) : Date.now();
  const total = sum((p) => p.total);
  const done = Object.values(counts).reduce((a, b) => a + b, 0);
  const throughput = (done / Math.max(1, updatedAt - startedAt)) * 1000;
  const phases = new Set(parts.map((p) => p.phase));
  if (parts.length < sites) phases.add('preparing');
  const left = total - done;
  return {
    runId, total, counts, inFlight: sum((p) => p.inFlight), chunksDone: sum((p) => p.chunksDone), chunks: sum((p) => p.chunks),
    startedAt, updatedAt, throughput, etaMs: throughput > 0 && left > 0 ? (left / throughput) * 1000 : undefined,
    cancelling: parts.some((p) => p.cancelling), phase: PHASE_ORDER.find((ph) => phases.has(ph)) ?? 'preparing',
  };
}

/**
 * Live progress of a multi-site run: the parent names its sites' workflows, each is asked for its own progress. A
 * site not started yet (or not answering for a moment) keeps its last answer.
 */
export function multiSiteProgress(client: Client, workflowId: string): () => Promise<RunProgress> {
  const last = new Map<string, RunProgress>();
  return async () => {
    const state = await client.workflow.getHandle(workflowId).query(multiSiteQuery);
    await Promise.all(state.sites.map(async (site) => {
      const p = await client.workflow.getHandle(site.workflowId).query(progressQuery).catch(() => undefined);
      if (p) last.set(site.siteId, p);
    }));
    return combineProgress(state.runId, [...last.values()], state.sites.length);
  };
}

/** The live-progress source for `workflowId` when it is a multi-site run; undefined for any other run. */
export async function progressSourceFor(client: Client, workflowId: string): Promise<(() => Promise<RunProgress>) | undefined> {
  try {
    const { type } = await client.workflow.getHandle(workflowId).describe();
    return type === MULTI_SITE_WORKFLOW_TYPE ? multiSiteProgress(client, workflowId) : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

export interface MultiSiteStart {
  log: Logger;
  runtime: Runtime;
  runId: string;
  workflowId: string;
  dataset: { path: string; sha256: string; rows: number };
  /** Options as resolved; `siteId` is the comma-separated list. */
  options: RunOptions;
  detach: boolean;
  json: boolean;
}

/** `sitechat run --site a,b,c`: starts the multi-site workflow and follows it (or returns at once with `--detach`). */
export async function startMultiSiteRun(start: MultiSiteStart): Promise<number> {
  const { log, runtime, runId, workflowId, options } = start;
  const sites = parseSiteList(options.siteId, '--site');
  const input: MultiSiteInput = {
    kind: 'evaluation', runId, sites, dataset: { path: start.dataset.path, sha256: start.dataset.sha256 },
    options: { ...options, outDir: options.outDir ? resolve(options.outDir) : undefined },
  };
  const client = new Client({ connection: runtime.temporal.client, namespace: runtime.temporal.namespace });
  await client.workflow.start(MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId, args: [input] });
  log.info(`started evaluation run ${runId} (${start.dataset.rows} rows) on ${sites.length} sites at once: ${sites.join(', ')} — workflow ${workflowId}; each site's run is ${runId}-<site>`);
  if (start.detach) {
    if (runtime.localServer || runtime.simulator) log.warn('the embedded server/simulator stop when this command exits; the run continues when `sitechat watch` starts them again');
    log.out(start.json ? JSON.stringify({ runId, workflowId, sites: sites.map((s) => ({ siteId: s, runId: siteRunId(runId, s), workflowId: `${workflowId}-${s}` })) }) : workflowId);
    return ExitCode.ok;
  }
  return followRun(client, workflowId, { log, json: start.json, progress: multiSiteProgress(client, workflowId) });
}
