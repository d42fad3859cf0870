import { connectTemporal, temporalConfigured } from '../../../temporal/connect';
import { metricsAddressFromEnv } from '../../../observability/metrics/address';
import { installRuntimeWithMetrics, type WorkerMetrics } from '../../../worker/metrics';
import { TaskQueue } from '../../../temporal/taskQueues';
import { startWorkers } from '../../../worker/worker';
import { relaunchWithMemorySettings } from '../../../worker/memoryRelaunch';
import { workerConfigFromEnv } from '../../../temporal/workerConfig';
import { ConfigError } from '../../../shared/configError';
import { JudgeConfigError } from '../../../grading/judge/errors';
import { PAYLOAD_KEYS_ENV, PayloadKeysError } from '../../../codec/errors';
import { parsePayloadKeys, type PayloadKeys } from '../../../codec/keys';
import { ExitCode } from '../../follow/follow';
import { createLogger } from '../../logger';
import { PgDatabase } from '../../../store/pg/database';
import { tracingDestination } from '../../../observability/tracing/settings';
import { startTracingFromEnv } from '../../../observability/tracing/start';
import type { Tracing } from '../../../observability/tracing/state';

/** What the worker does with payloads, for its start line: ids only, never a key. */
function payloadsLine(keys: PayloadKeys | undefined): string {
  return keys ? `payloads encrypted with key id "${keys.encrypting.id}"${keys.byId.size > 1 ? ` (${keys.byId.size - 1} older key(s) decrypt)` : ''}` : `payloads in clear (no ${PAYLOAD_KEYS_ENV})`;
}

/** `sitechat worker`: polls every task queue until SIGINT/SIGTERM, then drains in-flight activities. */
export async function workerAction(flags: { queues?: string }): Promise<number> {
  const log = createLogger({ source: 'worker' });
  let metrics: WorkerMetrics | undefined;
  let tracing: Tracing | undefined;
  try {
    const config = workerConfigFromEnv();
    const metricsAddress = metricsAddressFromEnv();
    const keys = parsePayloadKeys(process.env[PAYLOAD_KEYS_ENV]);
    const known = Object.values(TaskQueue) as string[];
    const queues = flags.queues?.split(',').map((q) => q.trim()).filter(Boolean);
    const unknown = queues?.filter((q) => !known.includes(q)) ?? [];
    if (unknown.length > 0) {
      log.error(`unknown task queue(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
      return ExitCode.usage;
    }
    // Before anything is opened: the process may restart in place with settings only a start can give.
    relaunchWithMemorySettings(config.heapGrowthPercent);
    tracing = await startTracingFromEnv('sitechat-worker', (m) => log.warn(m));
    if (tracing) log.info(`traces to ${tracingDestination(tracing.settings)}`);
    metrics = await installRuntimeWithMetrics('WARN', metricsAddress);
    // One endpoint per process: with port 0 each worker of a host gets its own, printed here for the scrape config.
    if (metrics) log.info(`metrics at ${metrics.url}${metrics.temporal ? " (with the Temporal SDK's)" : ''}`);
    if (!temporalConfigured()) log.warn('TEMPORAL_ADDRESS is not set: connecting to localhost:7233');
    // A worker on a wrong store URL would fail every activity it takes: it checks the database (and creates or
    // upgrades the schema) before polling instead.
    let store = config.runsDir;
    if (config.storeUrl) {
      const db = new PgDatabase(config.storeUrl.reveal(), { max: 1 });
      store = db.location;
      await db.ready().finally(() => db.close());
    }
    const temporal = await connectTemporal();
    const workers = await startWorkers({ connection: temporal.worker, namespace: temporal.namespace, config, queues, dataConverter: temporal.dataConverter });
    log.info(`worker polling ${(queues ?? known).join(', ')} on ${temporal.address} (namespace ${temporal.namespace}); API at ${new URL(config.baseUrl).origin}, ${config.ratePerSecond || 'no'} requests/s per path; ${config.judge ? `judge ${config.judge.model} at ${new URL(config.judge.baseUrl).origin}, ${config.judge.rpm || 'no limit of'} calls/min` : 'no judge configured'}; results in ${store}; ${payloadsLine(keys)}`);
    const stop = (): void => {
      log.info('shutting down: finishing in-flight activities …');
      void workers.shutdown();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await workers.done;
    await temporal.close();
    return ExitCode.ok;
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    // A setting the worker cannot run with is a usage error: it stops at once, before polling anything.
    return err instanceof ConfigError || err instanceof JudgeConfigError || err instanceof PayloadKeysError ? ExitCode.usage : ExitCode.runFailed;
  } finally {
    // A listening endpoint would keep the process alive after the workers stopped.
    await metrics?.close();
    // Exports the spans still buffered (the workflow spans of runs that just ended among them).
    await tracing?.shutdown();
  }
}
