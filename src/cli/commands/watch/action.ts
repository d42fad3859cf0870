import { join } from 'node:path';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { clientFor } from '../../../temporal/client';
import { MULTI_SITE_WORKFLOW_TYPE, multiSiteQuery } from '../../../../workflows/multiSiteSignals';
import { cancelSignal } from '../../../../workflows/signals';
import { ExitCode, followRun } from '../../follow/follow';
import { createLogger, type Logger } from '../../logger';
import { progressSourceFor, renderMultiSiteFromStore } from '../run/multiSite';
import { openRuntime, STATE_DIR, type Runtime } from '../../runtime';
import { UsageError } from '../../usageError';
import { runsDir } from '../run/preflight';
import { localRunDir, openCliStore, renderFromStore } from '../../store/storeReports';
import { checkRunRef, workflowIdCandidates } from '../../runRef';
import { isStoreConnectFailure, storeFailureMessage } from '../../store/storeFailure';
import { temporalConfigured } from '../../../temporal/connect';

/** The run named is on no workflow of this server and namespace (exit 3). */
export class RunNotFoundError extends Error {
  override name = 'RunNotFoundError';
}

/** Where to look when a run is not found: only commands this installation has. */
function notFoundHint(namespace: string): string {
  const hints = ['finished runs: npx sitechat runs', 'scheduled runs: npx sitechat schedule describe <schedule id>'];
  // The Temporal CLI reaches a server of its own only when one is configured; the embedded one lives only as long as a sitechat command.
  if (temporalConfigured()) hints.push(`every workflow: npx sitechat temporal workflow list --namespace ${namespace} --query "WorkflowId STARTS_WITH 'sitechat-'"`);
  return hints.join('; ');
}

/** Accepts a run id (20261122-0412-5f3a9c, a scheduled run's nightly-…-2026-11-23T170511Z) or a full workflow id. */
async function findWorkflowId(client: Client, run: string): Promise<string> {
  for (const id of workflowIdCandidates(run)) {
    try {
      await client.workflow.getHandle(id).describe();
      return id;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
  throw new RunNotFoundError(`no run ${run} in namespace ${client.options.namespace} of this Temporal server; ${notFoundHint(client.options.namespace)}`);
}

async function withClient<T>(log: Logger, worker: boolean, fn: (client: Client, rt: Runtime) => Promise<T>): Promise<T> {
  const rt = await openRuntime({ log, worker, embeddedSimulator: worker });
  try {
    return await fn(clientFor(rt.temporal), rt);
  } finally {
    await rt.close();
  }
}

/** A run argument that cannot be a run or workflow id is a usage error, found before any server is started. */
function badRunId(run: string, log: Logger): boolean {
  try {
    checkRunRef(run, '<run>');
    return false;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    log.error(err.message);
    return true;
  }
}

/**
 * With a remote store, the finished run's reports (and a backfill's answers) are rendered into this host's runs dir;
 * a multi-site run's every site and its combined report.
 */
async function renderHere(client: Client, workflowId: string, log: Logger): Promise<void> {
  const opened = openCliStore();
  try {
    if (!opened.remote) return;
    // As the run engine names it: a scheduled run's time without its colons.
    const runId = workflowId.replace(/^sitechat-(evaluation|backfill)-/u, '').replace(/:/gu, '');
    const handle = client.workflow.getHandle(workflowId);
    if ((await handle.describe()).type === MULTI_SITE_WORKFLOW_TYPE) {
      const state = await handle.query(multiSiteQuery);
      const variants = state.variants ?? state.sites.map((s) => ({ name: s.name ?? s.siteId, siteId: s.siteId }));
      await renderMultiSiteFromStore(client, opened, { runId: state.runId, workflowId, variants, matrix: state.variants !== undefined, reference: state.reference }, log);
      return;
    }
    const outDir = localRunDir(runsDir(), runId);
    await renderFromStore(opened, runId, { outDir, outFile: join(outDir, 'answers.csv') }, log);
  } finally {
    await opened.close();
  }
}

/**
 * A run that is still running on the embedded server this command started itself: no other process polls that
 * server, so without `--worker` nothing would ever run it.
 */
function noWorkerCanRunIt(run: string): string {
  return `run ${run} is not finished, and no worker can run it: this command started the embedded Temporal server (${STATE_DIR}/) itself, ` +
    `so nothing else polls it. \`npx sitechat watch ${run} --worker\` runs it here, asking SITECHAT_BASE_URL (set it, and SITECHAT_API_KEY, ` +
    'to the API the run asks; without it the built-in simulator)';
}

/**
 * `sitechat watch`: follows a run; its questions are asked by the workers of its Temporal server. `--worker` adds one
 * of this process, which takes any run's tasks on that server (those of runs of another API it refuses).
 */
export async function watchAction(run: string, flags: { json?: boolean; worker: boolean }): Promise<number> {
  const log = createLogger();
  if (badRunId(run, log)) return ExitCode.usage;
  try {
    return await withClient(log, flags.worker, async (client, rt) => {
      const workflowId = await findWorkflowId(client, run);
      if (!flags.worker && rt.localServer && (await client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING') {
        log.error(noWorkerCanRunIt(run));
        return ExitCode.usage;
      }
      const code = await followRun(client, workflowId, { log, json: Boolean(flags.json), embedded: Boolean(rt.localServer || rt.simulator), progress: await progressSourceFor(client, workflowId) });
      await renderHere(client, workflowId, log);
      return code;
    });
  } catch (err) {
    log.error(isStoreConnectFailure(err) ? storeFailureMessage(err) : err instanceof Error ? err.message : String(err));
    return err instanceof UsageError ? ExitCode.usage : ExitCode.runFailed;
  }
}

export async function cancelAction(run: string): Promise<number> {
  const log = createLogger();
  if (badRunId(run, log)) return ExitCode.usage;
  try {
    return await withClient(log, false, async (client, rt) => {
      const workflowId = await findWorkflowId(client, run);
      const handle = client.workflow.getHandle(workflowId);
      try {
        if ((await handle.describe()).status.name === 'RUNNING') {
          await handle.signal(cancelSignal);
          log.info(`cancel requested for ${workflowId}; its worker closes the open sessions and writes the reports`);
          return ExitCode.ok;
        }
      } catch (err) {
        // It ended between the look and the signal.
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
      // Nothing to cancel: what the run ended with, as `watch` would say it, and its exit code.
      log.info(`run ${run} had already finished: nothing was cancelled`);
      return await followRun(client, workflowId, { log, json: false, embedded: Boolean(rt.localServer || rt.simulator), progress: await progressSourceFor(client, workflowId) });
    });
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    return ExitCode.runFailed;
  }
}
