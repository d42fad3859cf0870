import { join, resolve } from 'node:path';
import { type Client, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { clientFor } from '../../../temporal/client';
import { CANCELLED_BEFORE_START, summarizeMultiSite } from '../../../analysis/multiSite';
import { type SiteRunRef } from '../../../domain/multiSite';
import { writeMultiSiteReports } from '../../../render/multiSiteRender';
import type { OpenedStore } from '../../../store/open';
import { TaskQueue } from '../../../temporal/taskQueues';
import { startWorkflow } from '../../../../workflows/starts';
import { MULTI_SITE_WORKFLOW_TYPE, multiSiteQuery, siteRunId } from '../../../../workflows/multiSiteSignals';
import type { MultiSiteInput, VariantSpec } from '../../../domain/multiSite';
import { compareVariants } from '../../../analysis/matrixComparison';
import { matrixPlanLines } from './matrixPlan';
import { variantSites } from './variants';
import { progressQuery } from '../../../../workflows/signals';
import { emptyCounts, type RunOptions, type RunProgress } from '../../../domain/run';
import { ExitCode, followRun } from '../../follow/follow';
import type { Logger } from '../../logger';
import type { Runtime } from '../../runtime';
import { runsDir } from './preflight';
import { parseSiteList } from './siteList';
import { localRunDir, renderFromStore } from '../../store/storeReports';
import { plural } from '../../../shared/plural';

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
    workflows: parts.flatMap((p) => p.workflows ?? []),
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
    // Keyed by workflow: variants on one site are separate runs.
    await Promise.all(state.sites.map(async (site) => {
      const p = await client.workflow.getHandle(site.workflowId).query(progressQuery).catch(() => undefined);
      if (p) last.set(site.workflowId, p);
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
  /**
   * The results store, when it is remote (PostgreSQL): the workers then write the reports on their own hosts, and this
   * command renders every site's reports and the combined one here from the store once the run has ended.
   */
  remote?: OpenedStore;
  runId: string;
  workflowId: string;
  dataset: { path: string; sha256: string; rows: number };
  /** Options as resolved; `siteId` is the comma-separated list (and `model` may be one). */
  options: RunOptions;
  /** Every variant; `matrix` false: they are the sites of `--site a,b`, named after them (the multi-site run). */
  variants: VariantSpec[];
  matrix: boolean;
  /** `--reference`, a variant's name. */
  reference?: string;
  /** Questions one variant sends (rows × repeats), and the worker's rate per site and path: for the plan line. */
  questions: number;
  ratePerSecond: number;
  detach: boolean;
  json: boolean;
}

/**
 * `sitechat run --site a,b,c`, `--model a,b` or a config with `variants:`: prints the plan, starts the multi-site
 * workflow and follows it (or returns at once with `--detach`).
 */
export async function startMultiSiteRun(start: MultiSiteStart): Promise<number> {
  const { log, runtime, runId, workflowId, options, variants } = start;
  const sites = start.matrix ? variantSites(variants) : parseSiteList(options.siteId, '--site');
  const outDir = options.outDir ? resolve(options.outDir) : undefined;
  // Paths on this host mean nothing to a worker elsewhere: with a remote store the workers place the reports. A
  // matrix run's models are its variants'; a multi-site run keeps the input it always had (no `variants`).
  const input: MultiSiteInput = {
    kind: 'evaluation', runId, sites, dataset: { path: start.dataset.path, sha256: start.dataset.sha256 },
    options: { ...options, ...(start.matrix && { siteId: sites.join(','), model: undefined }), outDir: start.remote ? undefined : outDir },
    ...(start.matrix && { variants }), ...(start.reference !== undefined && { reference: start.reference }),
  };
  for (const line of matrixPlanLines(variants, start.questions, start.ratePerSecond)) log.info(line);
  const client = clientFor(runtime.temporal);
  await startWorkflow(client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId, args: [input] });
  const names = variants.map((v) => v.name);
  log.info(start.matrix
    ? `started evaluation run ${runId} (${plural(start.dataset.rows, 'row')}) in ${variants.length} variants at once: ${names.join(', ')} — workflow ${workflowId}; each variant's run is ${runId}-<variant>`
    : `started evaluation run ${runId} (${plural(start.dataset.rows, 'row')}) on ${sites.length} sites at once: ${sites.join(', ')} — workflow ${workflowId}; each site's run is ${runId}-<site>`);
  if (start.detach) {
    if (runtime.localServer || runtime.simulator) log.warn('the embedded server/simulator stop when this command exits; the run continues when `npx sitechat watch <run> --worker` starts them again');
    const runs = variants.map((v) => ({ ...(start.matrix && { variant: v.name }), siteId: v.siteId, runId: siteRunId(runId, v.name), workflowId: `${workflowId}-${v.name}` }));
    log.out(start.json ? JSON.stringify({ runId, workflowId, sites: runs }) : workflowId);
    return ExitCode.ok;
  }
  const code = await followRun(client, workflowId, { log, json: start.json, progress: multiSiteProgress(client, workflowId) });
  if (start.remote) await renderMultiSiteFromStore(client, start.remote, { runId, workflowId, variants, matrix: start.matrix, reference: start.reference, outDir }, log);
  return code;
}

/**
 * Writes a finished multi-site run's reports on this host from the results store: the combined report in `--out DIR`
 * (each site's five files in `DIR/<site>/`), or in `<SITECHAT_RUNS_DIR>/<runId>/` (each site's in
 * `<SITECHAT_RUNS_DIR>/<runId>-<site>/`). A site's failure comes from its workflow, as the parent saw it.
 */
export async function renderMultiSiteFromStore(
  client: Client, opened: OpenedStore, run: { runId: string; workflowId: string; variants: VariantSpec[]; matrix: boolean; reference?: string; outDir?: string }, log: Logger,
): Promise<void> {
  const outDir = run.outDir ?? localRunDir(runsDir(), run.runId);
  const refs: SiteRunRef[] = [];
  for (const variant of run.variants) {
    const { siteId, name } = variant;
    const ref: SiteRunRef = { siteId, ...(run.matrix && { variant }), runId: siteRunId(run.runId, name), workflowId: `${run.workflowId}-${name}` };
    // The layout the workers use: `--out DIR` puts the variants in DIR/<variant>/, else beside the run (<runId>-<variant>/).
    const siteDir = run.outDir ? join(run.outDir, name) : localRunDir(runsDir(), ref.runId);
    if (await renderFromStore(opened, ref.runId, { outDir: siteDir }, quietInfo(log))) ref.reportDir = siteDir;
    ref.failure = await siteFailure(client, ref.workflowId);
    refs.push(ref);
  }
  const startedAt = (await client.workflow.getHandle(run.workflowId).describe()).startTime.toISOString();
  // The dataset's path comes from the sites' stored runs (this host may know it under another path).
  const compared = await compareVariants(opened.store, refs);
  const input = { runId: run.runId, workflowId: run.workflowId, kind: 'evaluation' as const, dataset: '', startedAt, sites: refs, ...(run.reference !== undefined && { reference: run.reference }) };
  const summary = await summarizeMultiSite(opened.store, input, compared);
  const paths = await writeMultiSiteReports(summary, outDir, compared.comparison, await opened.store.getNotifications(run.runId));
  log.info(`reports from the results store (${opened.location}) written here: ${paths.join(', ')}; each variant's in ${refs.map((r) => r.reportDir ?? `(none: ${r.variant?.name ?? r.siteId})`).join(', ')}`);
}

/** Why a site's run failed, or nothing when it completed; a site that never started was cancelled before it. */
async function siteFailure(client: Client, workflowId: string): Promise<SiteRunRef['failure']> {
  try {
    await client.workflow.getHandle(workflowId).result();
    return undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { message: 'the run was cancelled before this site started', type: CANCELLED_BEFORE_START };
    const cause = err instanceof WorkflowFailedError && err.cause ? err.cause : err;
    return { message: cause instanceof Error ? cause.message : String(cause), type: cause instanceof Error ? cause.name : 'Error' };
  }
}

function quietInfo(log: Logger): Logger {
  return { ...log, info: (line: string) => log.debug(line) };
}
