import { basename, extname, resolve } from 'node:path';
import type { ScheduleOptions } from '@temporalio/client';
import { clientFor } from '../../../temporal/client';
import { cleanupInputFromFlags, CleanupOptionError } from '../cleanup/options';
import { isSiteList } from '../run/siteList';
import {
  cleanupSchedule, defaultScheduleId, formatScheduleDetails, formatScheduleList, nightlySchedule, OverlapFlag,
  runIdOf, Schedules,
} from '../../../schedules';
import { temporalConfigured } from '../../../temporal/connect';
import type { NightlyScheduleFlags, ScheduleOp } from './flags';
import { ExitCode } from '../../follow/follow';
import { createLogger, type Logger } from '../../logger';
import { isUsageError } from '../../usageErrors';
import { resolveRunOptions } from '../run/runOptions';
import { openRuntime } from '../../runtime';
import { DEMO_EMAIL, defaultSiteId, preflight } from '../run/preflight';
import { checkModels, modelSource } from '../run/modelCheck';
import { isModelList } from '../run/variants';
import { plural } from '../../../shared/plural';

/** `--confirm` of scheduled runs unless given (docs/reports.md, "Confirm before alarm"). */
const SCHEDULE_CONFIRM = 2;

async function nightlyOptions(flags: NightlyScheduleFlags, log: Logger): Promise<ScheduleOptions | undefined> {
  const datasetPath = resolve(flags.dataset);
  const checked = await preflight('evaluation', flags.dataset, { ...flags, out: undefined, worker: false }, log);
  if (!checked) return undefined;
  const { scan, config } = checked;
  if (isModelList(flags.model ?? config?.model) || config?.variants) {
    // A schedule fires one run shape; a matrix's variants are not carried by it yet.
    log.error(`${isModelList(flags.model ?? config?.model) ? '--model' : `--config ${flags.config ?? ''}: \`variants\``}: a nightly schedule runs one model (or one per site with --site a,b): create one schedule per model or variant; nothing was created.`);
    return undefined;
  }
  const email = flags.email ?? config?.email ?? process.env.SITECHAT_EMAIL ?? (process.env.SITECHAT_BASE_URL ? undefined : DEMO_EMAIL);
  // No one watches a nightly run: a false alarm costs a person's morning, two confirming answers per regressed row do not.
  const { options } = await resolveRunOptions({ ...flags, out: undefined, worker: false }, { siteId: defaultSiteId(), email, config, confirm: SCHEDULE_CONFIRM });
  // The models, as `run` checks them, when this shell can read the tenant's limits (SITECHAT_BASE_URL, key, tenant).
  const modelsUsed = {
    flag: flags.model,
    config: flags.model === undefined && config?.model !== undefined && flags.config ? { file: flags.config, model: config.model } : undefined,
    dataset: { path: datasetPath, shown: flags.dataset, hasModelColumn: scan.columns.includes('model'), delimiter: flags.delimiter, defaultEmail: options.defaultEmail },
  };
  if (!(await checkModels(modelsUsed, modelSource(undefined), log))) return undefined;
  const id = flags.id ?? defaultScheduleId('nightly', options.siteId, basename(datasetPath, extname(datasetPath)));
  log.info(`dataset ${datasetPath}: ${plural(scan.rows, 'row')}; the workers must see this path (the file is pinned when each run starts)`);
  return nightlySchedule(id, datasetPath, options, flags);
}

/** Builds the schedule before connecting, so flag errors never need Temporal. */
async function createOptions(request: ScheduleOp, log: Logger): Promise<ScheduleOptions | undefined> {
  if (request.op === 'create-nightly') return nightlyOptions(request.flags, log);
  if (request.op !== 'create-cleanup') return undefined;
  const input = cleanupInputFromFlags(request.flags, { siteId: defaultSiteId() });
  // A scheduled cleanup is one workflow on one site; `sitechat cleanup --site a,b` runs several now.
  if (isSiteList(input.siteId)) throw new CleanupOptionError(`a cleanup schedule closes one site's sessions: create one schedule per site (got --site ${input.siteId})`);
  return cleanupSchedule(request.flags.id ?? defaultScheduleId('cleanup', input.siteId), input, request.flags);
}

async function perform(request: ScheduleOp, schedules: Schedules, created: ScheduleOptions | undefined, log: Logger): Promise<number> {
  const json = 'json' in request.flags && request.flags.json === true;
  switch (request.op) {
    case 'create-nightly':
    case 'create-cleanup': {
      const details = await schedules.create(created as ScheduleOptions);
      if (json) log.out(JSON.stringify(details, null, 2));
      else log.out([`created schedule ${details.id}`, ...formatScheduleDetails(details)].join('\n'));
      return ExitCode.ok;
    }
    case 'list': {
      const views = await schedules.list();
      log.out(json ? JSON.stringify(views, null, 2) : formatScheduleList(views).join('\n'));
      return ExitCode.ok;
    }
    case 'describe': {
      const details = await schedules.describeWithOutcomes(request.id);
      log.out(json ? JSON.stringify(details, null, 2) : formatScheduleDetails(details).join('\n'));
      return ExitCode.ok;
    }
    case 'pause':
    case 'unpause':
      await schedules[request.op](request.id, request.flags.note);
      log.out(`schedule ${request.id} ${request.op === 'pause' ? 'paused' : 'unpaused'}`);
      return ExitCode.ok;
    case 'trigger': {
      const overlap = request.flags.overlap === undefined ? undefined : OverlapFlag[request.flags.overlap as keyof typeof OverlapFlag];
      const result = await schedules.trigger(request.id, overlap);
      if (json) log.out(JSON.stringify({ scheduleId: request.id, ...result }));
      else if (result.skipped) log.out(`skipped: a run of ${request.id} is still going and its overlap policy skips (use --overlap allow-all to start one anyway)`);
      else if (result.workflowId) log.out(`started ${result.workflowId}; follow it with: npx sitechat watch ${runIdOf(result.workflowId)}`);
      else log.out(`triggered ${request.id}; see: npx sitechat schedule describe ${request.id}`);
      return ExitCode.ok;
    }
    case 'delete':
      await schedules.delete(request.id);
      log.out(`schedule ${request.id} deleted (runs already started go on)`);
      return ExitCode.ok;
  }
}

/** `sitechat schedule …`: exit 0, 2 for bad flags or a bad dataset, 3 when Temporal refuses or is unreachable. */
export async function scheduleAction(request: ScheduleOp, io: { log?: Logger } = {}): Promise<number> {
  const log = io.log ?? createLogger();
  let runtime;
  try {
    const created = await createOptions(request, log);
    if (request.op.startsWith('create') && created === undefined) return ExitCode.usage;
    if (!temporalConfigured()) {
      log.warn('no TEMPORAL_ADDRESS: using the embedded dev server (.sitechat/temporal.db); its schedules fire only while a sitechat process keeps it running');
    }
    runtime = await openRuntime({ log, worker: false, embeddedSimulator: false });
    const client = clientFor(runtime.temporal);
    return await perform(request, new Schedules(client), created, log);
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    return isUsageError(err) ? ExitCode.usage : ExitCode.runFailed;
  } finally {
    await runtime?.close();
  }
}
