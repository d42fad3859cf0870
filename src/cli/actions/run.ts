import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Client } from '@temporalio/client';
import { TaskQueue } from '../../temporal/taskQueues';
import type { RunInput, RunKind } from '../../../workflows/types';
import { ExitCode, followRun } from '../follow';
import { createLogger } from '../logger';
import { startMultiSiteRun } from '../multiSite';
import { resolveRunOptions, UsageError } from '../runOptions';
import { preflight, runsDir } from '../preflight';
import { openRuntime } from '../runtime';
import { isSiteList } from '../siteList';
import type { ValidatedFlags } from '../validate';

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

/** `sitechat run` (and `backfill`): check every flag and the dataset, start the workflow, follow it, exit with the verdict. */
export async function runAction(kind: RunKind, dataset: string, flags: ValidatedFlags): Promise<number> {
  const log = createLogger({ quiet: false });
  const datasetPath = resolve(dataset);
  let runtime;
  try {
    // Every check before anything starts: problems with their flag, file and line, and nothing is sent.
    const checked = await preflight(kind, dataset, flags, log);
    if (!checked) return ExitCode.usage;
    const { scan, config } = checked;
    if (flags.detach && !flags.worker) log.info('detached run: make sure a `sitechat worker` is running against the same Temporal server');
    runtime = await openRuntime({ log, worker: flags.worker });
    const { options } = await resolveRunOptions(flags, { siteId: runtime.defaultSiteId, email: runtime.defaultEmail, config });
    const runId = flags.resume ?? newRunId();
    const workflowId = workflowIdFor(kind, runId);
    if (isSiteList(options.siteId)) {
      const dataset = { path: datasetPath, sha256: scan.sha256, rows: scan.rows };
      return await startMultiSiteRun({ log, runtime, runId, workflowId, dataset, options, detach: Boolean(flags.detach), json: Boolean(flags.json) });
    }
    const input: RunInput = { kind, runId, dataset: { path: datasetPath, sha256: scan.sha256 }, options: placeOutputs(kind, runId, options), resume: Boolean(flags.resume) };
    const client = new Client({ connection: runtime.temporal.client, namespace: runtime.temporal.namespace });
    await client.workflow.start(kind === 'evaluation' ? 'evaluationRun' : 'backfillRun', { taskQueue: TaskQueue.main, workflowId, args: [input] });
    if (flags.resume) log.info(`resuming ${runId}: rows that already have an answer are not sent again`);
    log.info(`started ${kind} run ${runId} (${scan.rows} rows, ${scan.conversations} conversations) on site ${options.siteId} — workflow ${workflowId}`);
    if (flags.detach) {
      if (runtime.localServer || runtime.simulator) log.warn('the embedded server/simulator stop when this command exits; the run continues when `sitechat watch` starts them again');
      log.out(flags.json ? JSON.stringify({ runId, workflowId }) : workflowId);
      return ExitCode.ok;
    }
    return await followRun(client, workflowId, { log, json: Boolean(flags.json) });
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    return err instanceof UsageError || (err instanceof Error && /config|dataset/i.test(err.name)) ? ExitCode.usage : ExitCode.runFailed;
  } finally {
    await runtime?.close();
  }
}
