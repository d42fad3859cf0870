import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { clientFor } from '../../../temporal/client';
import { TaskQueue } from '../../../temporal/taskQueues';
import { startWorkflow } from '../../../../workflows/starts';
import type { RunInput, RunKind } from '../../../domain/run';
import { ExitCode, exitCodeFor, followRun } from '../../follow/follow';
import { gradersDirFor, relativeGraders } from './graders';
import { createLogger } from '../../logger';
import { startMultiSiteRun } from './multiSite';
import { resolveRunOptions } from './runOptions';
import { preflight, runsDir } from './preflight';
import { openRuntime } from '../../runtime';
import { temporalConfigured } from '../../../temporal/connect';
import { localRunDir, openCliStore, renderFromStore, type LocalTargets } from '../../store/storeReports';
import { isModelList, resolveVariants } from './variants';

import { isUsageError } from '../../usageErrors';
import { checkModels, modelSource } from './modelCheck';
import { isStoreConnectFailure, storeFailureMessage } from '../../store/storeFailure';
import { finishedRun } from './resumeCheck';
import { planLine, repeatOf } from './repeatPlan';
import { refreshHistory } from './historyRefresh';
import type { ValidatedFlags } from './validate';
import { plural } from '../../../shared/plural';

/** The rate per site and API path the plan line assumes: this process's worker's (SITECHAT_RATE_LIMIT), else the API's 5/s. */
function planRate(env: NodeJS.ProcessEnv): number {
  const n = Number(env.SITECHAT_RATE_LIMIT);
  return env.SITECHAT_RATE_LIMIT !== undefined && Number.isFinite(n) && n >= 0 ? n : 5;
}

/** Sortable and unique enough for a person to type: 20261122-0412-5f3a9c */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 13);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export function workflowIdFor(kind: RunKind, runId: string): string {
  return `sitechat-${kind}-${runId}`;
}

/**
 * Absolute paths, as the in-process worker sees them. `--out` is the report directory of an evaluation and the
 * answers file of a backfill (default runs/<runId>/answers.csv).
 */
function placeOutputs(kind: RunKind, runId: string, options: RunInput['options']): RunInput['options'] {
  const out = options.outDir ? resolve(options.outDir) : undefined;
  if (kind === 'evaluation') return { ...options, outDir: out };
  return { ...options, outDir: undefined, outFile: out ?? join(runsDir(), runId, 'answers.csv') };
}

/** Where this host wants the run's files; with a remote store the CLI renders them there itself once the run ends. */
function localTargets(kind: RunKind, runId: string, placed: RunInput['options']): LocalTargets {
  return { outDir: placed.outDir ?? localRunDir(runsDir(), runId), outFile: kind === 'backfill' ? placed.outFile : undefined };
}

/** `--no-worker` where no worker could ever run the questions: an embedded server is this command's alone. */
const NO_WORKER_NO_SERVER = '--no-worker leaves the questions to workers elsewhere, but without TEMPORAL_ADDRESS this command would start an ' +
  'embedded Temporal server of its own, which no worker polls: nothing would ever ask them. Set TEMPORAL_ADDRESS to the server your ' +
  '`npx sitechat worker` processes poll (e.g. from `npx sitechat server`), or drop --no-worker. Nothing was started.';

/** `sitechat run` (and `backfill`): check every flag and the dataset, start the workflow, follow it, exit with the verdict. */
export async function runAction(kind: RunKind, dataset: string, flags: ValidatedFlags): Promise<number> {
  const log = createLogger({ quiet: false });
  const datasetPath = resolve(dataset);
  let runtime;
  let opened;
  try {
    if (!flags.worker && !temporalConfigured()) {
      log.error(NO_WORKER_NO_SERVER);
      return ExitCode.usage;
    }
    // Every check before anything starts: problems with their flag, file and line, and nothing is sent.
    const checked = await preflight(kind, dataset, flags, log);
    if (!checked) return ExitCode.usage;
    const { scan, config } = checked;
    opened = openCliStore();
    if (flags.resume !== undefined) {
      const done = await finishedRun(opened.store, flags.resume, scan.rows * repeatOf(flags, config));
      if (done) {
        log.info(`nothing to resume: run ${flags.resume} has an answer for each of its ${plural(done.rows, 'row')}; its results and reports in ${opened.location} are left as they are`);
        if (flags.json) log.out(JSON.stringify(done.summary, null, 2));
        return exitCodeFor({ summary: done.summary, cancelled: false });
      }
    }
    if (flags.detach && !flags.worker) log.info('detached run: make sure a `npx sitechat worker` is running against the same Temporal server');
    const gradersDir = gradersDirFor(flags.config);
    // Without a worker here nothing would ask the embedded simulator: the workers elsewhere ask their own API.
    runtime = await openRuntime({ log, worker: flags.worker, embeddedSimulator: flags.worker, gradersDir, judgeNotice: kind === 'evaluation' });
    const resolved = await resolveRunOptions(flags, { siteId: runtime.defaultSiteId, email: runtime.defaultEmail, config });
    const variantModels = (config?.variants ?? []).flatMap((v, index) => (v.model !== undefined ? [{ index, model: v.model }] : []));
    const modelsUsed = {
      flag: flags.model,
      config: flags.model === undefined && config?.model !== undefined && flags.config ? { file: flags.config, model: config.model } : undefined,
      variants: kind === 'evaluation' && flags.config && variantModels.length > 0 ? { file: flags.config, models: variantModels } : undefined,
      dataset: { path: datasetPath, shown: dataset, hasModelColumn: scan.columns.includes('model'), delimiter: flags.delimiter, defaultEmail: resolved.options.defaultEmail },
    };
    if (!(await checkModels(modelsUsed, modelSource(runtime.simulator?.baseUrl), log))) return ExitCode.usage;
    // The run's API, when this process knows it: only workers of that API take the run's calls (one run, one API).
    const options = { ...resolved.options, assertions: relativeGraders(resolved.options.assertions, gradersDir), ...(runtime.api && { api: runtime.api }) };
    const runId = flags.resume ?? newRunId();
    const workflowId = workflowIdFor(kind, runId);
    log.annotate?.({ runId, workflowId, site: options.siteId });
    // With a remote store the workers read the dataset from it, whichever sites they ask.
    if (opened.remote) await opened.plans.shareDataset(datasetPath, scan.sha256);
    // Already checked by the flag checks: a list of sites or models, or the config's variants, make a matrix run.
    const variants = kind === 'evaluation'
      ? resolveVariants({ site: options.siteId, siteFrom: '--site', model: options.model, modelFrom: '--model', config, configFile: flags.config })
      : undefined;
    if (variants) {
      const dataset = { path: datasetPath, sha256: scan.sha256, rows: scan.rows };
      // `--site a,b` alone stays the multi-site run it always was (its variants named after its sites).
      const matrix = isModelList(options.model) || config?.variants !== undefined;
      const code = await startMultiSiteRun({
        log, runtime, runId, workflowId, dataset, options, variants, matrix, reference: flags.reference, questions: scan.rows * (options.repeat ?? 1),
        ratePerSecond: planRate(process.env), detach: Boolean(flags.detach), json: Boolean(flags.json), remote: opened.remote ? opened : undefined,
      });
      if (!flags.detach) await refreshHistory(opened, log);
      return code;
    }
    const placed = placeOutputs(kind, runId, options);
    // A remote store: paths on this host mean nothing to a worker elsewhere. The worker writes its report files in its
    // own runs directory; this command renders them here from the store, and the workers read the dataset from it.
    const input: RunInput = {
      kind, runId, dataset: { path: datasetPath, sha256: scan.sha256 }, resume: Boolean(flags.resume),
      options: opened.remote ? { ...placed, outDir: undefined, outFile: undefined } : placed,
    };
    const client = clientFor(runtime.temporal);
    await startWorkflow(client, kind === 'evaluation' ? 'evaluationRun' : 'backfillRun', { taskQueue: TaskQueue.main, workflowId, args: [input] });
    if (flags.resume) log.info(`resuming ${runId}: rows that already have an answer are not sent again`);
    log.info(`started ${kind} run ${runId} (${planLine(scan, options.repeat ?? 1)}) on site ${options.siteId} — workflow ${workflowId}`);
    if (flags.detach) {
      log.out(flags.json ? JSON.stringify({ runId, workflowId }) : workflowId);
      return ExitCode.ok;
    }
    const code = await followRun(client, workflowId, { log, json: Boolean(flags.json), embedded: Boolean(runtime.localServer || runtime.simulator) });
    if (opened.remote) await renderFromStore(opened, runId, localTargets(kind, runId, placed), log);
    await refreshHistory(opened, log);
    return code;
  } catch (err) {
    log.error(isStoreConnectFailure(err) ? storeFailureMessage(err) : err instanceof Error ? err.message : String(err));
    return isUsageError(err) ? ExitCode.usage : ExitCode.runFailed;
  } finally {
    await runtime?.close();
    await opened?.close();
  }
}
