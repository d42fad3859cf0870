import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join, resolve } from 'node:path';
import { connectTemporal, temporalConfigured, type TemporalConnections } from '../temporal/connect';
import { startLocalServer, type LocalServer } from '../temporal/localServer';
import { isSameProcess, processIdentity, type ProcessIdentity } from '../temporal/processIdentity';
import { metricsAddressFromEnv } from '../observability/metrics/address';
import { installRuntimeWithMetrics } from '../worker/metrics';
import { tracingDestination } from '../observability/tracing/settings';
import { startTracingFromEnv } from '../observability/tracing/start';
import { startWorkers } from '../worker/worker';
import { type RunningWorkers } from '../worker/workerGroup';
import { workerConfigFromEnv, type WorkerConfig } from '../temporal/workerConfig';
import { Secret } from '../api/secret';
import { apiIdentity, workerApi, type ApiIdentity } from '../api/identity';
import { PAYLOAD_KEYS_ENV } from '../codec/errors';
import { parsePayloadKeys } from '../codec/keys';
import { JUDGE_DEFAULTS, type JudgeSettings } from '../grading/judge/settings';
import type { Logger } from './logger';
import { UsageError } from './usageError';

function judgeConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.SITECHAT_JUDGE_BASE_URL || env.SITECHAT_JUDGE_API_KEY || env.SITECHAT_JUDGE_MODEL);
}

/**
 * Judge calls per minute to the simulator's judge route: it limits requests per client IP and path like the API
 * (5 per second, fixed one-second windows), so 300 would meet it exactly and any burst of the judge queue's dispatch
 * would be refused; 4 per second leaves that room. At 600 a demo run with judge assertions lost rows to 429s.
 */
const SIM_JUDGE_RPM = 240;

function simulatorJudge(baseUrl: string): JudgeSettings {
  return { ...JUDGE_DEFAULTS, baseUrl, apiKey: new Secret('sim-judge-key'), model: 'sim-judge', rpm: SIM_JUDGE_RPM };
}

/** Where the embedded dev server keeps its database, so `sitechat watch` works after a restart. */
export const STATE_DIR = '.sitechat';

export interface RuntimeOptions {
  log: Logger;
  /**
   * Run an in-process worker (needs the API key in this process's environment). With the embedded simulator, only on
   * a Temporal server this process starts itself: on any other, it is refused (`UsageError`).
   */
  worker: boolean;
  /** Where the in-process worker loads custom graders from (see `gradersDirFor`). @default SITECHAT_GRADERS_DIR */
  gradersDir?: string;
  /** Start the embedded simulator when SITECHAT_BASE_URL is unset. @default true */
  embeddedSimulator?: boolean;
  /** Say that judge assertions use the simulator's judge route: only where rows are graded (evaluations). @default false */
  judgeNotice?: boolean;
}

export interface Runtime {
  temporal: TemporalConnections;
  /** Set when this process runs the dev server itself. */
  localServer?: LocalServer;
  /** Set when this process runs the simulator itself. */
  simulator?: { baseUrl: string; close(): Promise<void> };
  /** Site used when none is given: SITECHAT_SITE_ID, or the simulator's demo site. */
  defaultSiteId?: string;
  /** Default email for new sessions: SITECHAT_EMAIL, or a demo address on the simulator. */
  defaultEmail?: string;
  workers?: RunningWorkers;
  /**
   * The API runs started here ask (`RunOptions.api`): this process's worker's, else SITECHAT_BASE_URL's; undefined
   * when neither is known here (the worker that prepares the run then decides).
   */
  api?: ApiIdentity;
  close(): Promise<void>;
}

/**
 * Why a worker whose simulator is embedded does not join a Temporal server it did not start: every worker of a
 * namespace takes any run's tasks, so its simulator would answer other runs' questions, and their workers this run's
 * (one run, two APIs: docs/deployment.md).
 */
function foreignServerRefusal(address: string): UsageError {
  return new UsageError(`no SITECHAT_BASE_URL: this command's worker would ask a simulator of its own, on the Temporal server at ${address}, ` +
    'which it did not start (TEMPORAL_ADDRESS, or another sitechat command\'s embedded server): there it would take other runs\' questions, and ' +
    'their workers this one\'s. Set SITECHAT_BASE_URL and SITECHAT_API_KEY to the API the workers of that server ask, or leave ' +
    'TEMPORAL_ADDRESS unset for a run on an embedded server of its own. Nothing was started.');
}

/** `.sitechat/temporal.json`: who runs the embedded server. Identities, not bare pids: a pid is reused once its process is gone. */
interface ServerFile {
  address: string;
  /** The sitechat process that owns the server. */
  owner?: ProcessIdentity;
  /** The server process itself. */
  server?: ProcessIdentity;
}

function readServerFile(path: string, log: Logger): ServerFile | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ServerFile;
  } catch (err) {
    log.warn(`${path} is not readable (${err instanceof Error ? err.message : String(err)}); ignoring it`);
    return undefined;
  }
}

/** Connects to the configured Temporal server, or to the embedded one (started here, or by another sitechat). */
async function openTemporal(log: Logger): Promise<{ temporal: TemporalConnections; localServer?: LocalServer }> {
  if (temporalConfigured()) return { temporal: await connectTemporal() };
  const dir = resolve(STATE_DIR);
  const serverFile = join(dir, 'temporal.json');
  const running = existsSync(serverFile) ? readServerFile(serverFile, log) : undefined;
  if (running) {
    if (running.owner?.pid !== process.pid && isSameProcess(running.owner)) {
      log.info(`using the embedded Temporal dev server of process ${running.owner?.pid} at ${running.address}`);
      return { temporal: await connectTemporal(running.address) };
    }
    // Its owner died without stopping it (SIGKILL): it holds the database, so it goes — but only when the pid is
    // still that server; a reused pid belongs to someone else and is left alone.
    if (isSameProcess(running.server)) process.kill(running.server?.pid ?? 0, 'SIGKILL');
    else if (running.server) log.debug(`pid ${running.server.pid} of ${serverFile} is no longer the dev server; left alone`);
  }
  mkdirSync(dir, { recursive: true });
  log.info('no TEMPORAL_ADDRESS: starting an embedded Temporal dev server');
  const localServer = await startLocalServer({ dbFilename: join(dir, 'temporal.db'), logFile: join(dir, 'temporal.log'), log: (l) => log.info(l) });
  const record: ServerFile = { address: localServer.address, owner: processIdentity(process.pid), server: localServer.pid ? processIdentity(localServer.pid) : undefined };
  writeFileSync(serverFile, JSON.stringify(record));
  const temporal = await connectTemporal(localServer.address);
  const stop = localServer.stop;
  localServer.stop = async () => {
    rmSync(serverFile, { force: true });
    await stop();
  };
  return { temporal, localServer };
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * While this process runs the embedded server, a signal nobody else handles (a command handles them only while it
 * follows a run) stops the server before the process goes: the default action would end it at once and leave the
 * server, in a process group of its own, running. Only the server: connections still in use are left to the exit.
 */
function stopOnSignal(stopServer: () => Promise<void>, log: Logger): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    if (process.listenerCount(signal) > 1) return;
    log.warn(`${signal}: stopping the embedded Temporal server`);
    // The exit status a signal's default action would give.
    void stopServer().finally(() => process.exit(128 + (osConstants.signals[signal] ?? 0)));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, handler);
  };
}

/**
 * Everything a command needs to run on the embedded defaults or on real settings: with no TEMPORAL_ADDRESS a local
 * dev server, with no SITECHAT_BASE_URL the simulator and its demo key, and an in-process worker when asked.
 */
export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { log } = options;
  // Checked before anything starts: a bad address is a usage error. Only a process that runs a worker serves metrics.
  const metricsAddress = options.worker ? metricsAddressFromEnv() : undefined;
  // So are the payload keys: a malformed SITECHAT_PAYLOAD_KEYS stops the command before a server starts.
  parsePayloadKeys(process.env[PAYLOAD_KEYS_ENV]);
  // Checked before anything starts too; the command's Temporal client traces with or without a worker.
  const tracing = await startTracingFromEnv('sitechat', (m) => log.warn(m));
  const closers: (() => Promise<void>)[] = [];
  if (tracing) {
    // First in, so last out: the spans of everything closed before it are exported.
    closers.push(() => tracing.shutdown());
    log.info(`traces to ${tracingDestination(tracing.settings)}`);
  }
  const metrics = await installRuntimeWithMetrics('ERROR', metricsAddress);
  if (metrics) {
    closers.push(() => metrics.close());
    log.info(`metrics of the in-process worker at ${metrics.url}`);
  }
  let closing: Promise<void> | undefined;
  // Once, whoever asks first (the command's end or a signal).
  const close = (): Promise<void> => (closing ??= (async () => {
    for (const c of closers.reverse()) await c().catch((err: unknown) => log.debug(`cleanup: ${String(err)}`));
  })());
  try {
    const { temporal, localServer } = await openTemporal(log);
    if (localServer) {
      // Unhooked after the server stopped (closers run in reverse).
      const unhook = stopOnSignal(() => localServer.stop(), log);
      closers.push(async () => unhook());
      closers.push(() => localServer.stop());
    }
    closers.push(() => temporal.close());

    let simulator: Runtime['simulator'];
    let overrides: Partial<WorkerConfig> = {};
    let defaultSiteId = process.env.SITECHAT_SITE_ID;
    let defaultEmail = process.env.SITECHAT_EMAIL;
    const embedded = !process.env.SITECHAT_BASE_URL && options.embeddedSimulator !== false;
    if (embedded && options.worker && !localServer) throw foreignServerRefusal(temporal.address);
    if (embedded) {
      const { startSimulator } = await import('../sim/index.js');
      const { DEMO } = await import('../sim/constants.js');
      const latencyScale = Number(process.env.SITECHAT_SIM_LATENCY_SCALE ?? '0.25');
      const sim = await startSimulator({ port: 0, latencyScale });
      simulator = sim;
      closers.push(() => sim.close());
      overrides = { baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, builtInSimulator: { judge: !judgeConfigured(process.env) } };
      if (!judgeConfigured(process.env)) {
        // The simulator's judge route (a deterministic test double) stands in for a model, like the simulator for the API.
        overrides.judge = simulatorJudge(sim.judgeBaseUrl);
        if (options.judgeNotice) log.info(`no SITECHAT_JUDGE_BASE_URL: judge assertions and uncertain rows use the embedded simulator's judge route (a test double, not a model)`);
      }
      defaultSiteId ??= DEMO.siteId;
      defaultEmail ??= 'demo.user@example.com';
      log.info(`no SITECHAT_BASE_URL: using the embedded simulator at ${sim.baseUrl} (demo knowledge base, latency ×${latencyScale})`);
    }

    let workers: RunningWorkers | undefined;
    let api = process.env.SITECHAT_BASE_URL ? apiIdentity(process.env.SITECHAT_BASE_URL) : undefined;
    if (options.worker) {
      const config = workerConfigFromEnv(process.env, options.gradersDir === undefined ? overrides : { ...overrides, gradersDir: options.gradersDir });
      workers = await startWorkers({ connection: temporal.worker, namespace: temporal.namespace, config, dataConverter: temporal.dataConverter });
      const w = workers;
      closers.push(() => w.shutdown());
      api = workerApi(config);
    }
    return { temporal, localServer, simulator, defaultSiteId, defaultEmail, workers, api, close };
  } catch (err) {
    await close();
    throw err;
  }
}
