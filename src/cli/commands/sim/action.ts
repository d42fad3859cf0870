import { existsSync, readFileSync } from 'node:fs';
import type { Logger } from '../../logger';
import { DEMO } from '../../../sim/constants';
import type { EndpointFaults, FaultConfig } from '../../../sim/faults/config';
import { parseFaultConfig } from '../../../sim/faults/config';
import { startSimulator, type SimulatorHandle } from '../../../sim/index';
import type { SimulatorOptions } from '../../../sim/options';

/** Flags of `sitechat sim`, as commander hands them over (strings, validated by the action). */
export interface SimFlags {
  port: string;
  host: string;
  fixtures?: string;
  latencyScale: string;
  rateLimit: string;
  rateLimitWindow: string;
  rateLimitScope: string;
  seed: string;
  modelNoise?: string;
  retention?: string;
  closedSessionChat: string;
  closeUnknownSession: string;
  listLimitPolicy: string;
  unknownModel: string;
  feedbackResubmit: string;
  feedbackUuidCheck: string;
  sessionOrder: string;
  idFormat: string;
  timestamps: string;
  errorBody: string;
  limitsBody: string;
  extraFields?: boolean;
  basePath?: string;
  retryAfter: string;
  retryAfterFormat: string;
  syncConfidence: boolean;
  statusConfidence: boolean;
  failRate?: string;
  asyncFailRate?: string;
  dropRate?: string;
  extraLatency?: string;
  processingDelay?: string;
  rateLimitBurst?: string;
  faults?: string;
  trustForwardedFor?: boolean;
  state?: string;
  adminToken?: string;
  json?: boolean;
}

const probability = { min: 0, max: 1 };

function num(flag: string, raw: string, rule: { min?: number; max?: number; integer?: boolean }): number {
  const value = Number(raw);
  const ok = raw.trim() !== '' && Number.isFinite(value) && (!rule.integer || Number.isInteger(value))
    && (rule.min === undefined || value >= rule.min) && (rule.max === undefined || value <= rule.max);
  if (!ok) {
    const range = [rule.min !== undefined ? `>= ${rule.min}` : '', rule.max !== undefined ? `<= ${rule.max}` : ''].filter(Boolean).join(' and ');
    throw new Error(`--${flag} must be ${rule.integer ? 'an integer' : 'a number'}${range ? ` ${range}` : ''} (got \`${raw}\`)`);
  }
  return value;
}

/** `--model-noise 0.2` (every model) or `--model-noise gpt-4o-mini=0.2,gpt-4o=0.1`; model names are checked by the simulator. */
function modelNoise(raw: string): number | Record<string, number> {
  if (!raw.includes('=')) return num('model-noise', raw, probability);
  const table: Record<string, number> = {};
  for (const part of raw.split(',')) {
    const [model, rate, ...rest] = part.split('=').map((x) => x.trim());
    if (!model || rate === undefined || rest.length > 0) throw new Error(`--model-noise: \`${part}\` is not MODEL=RATE (e.g. gpt-4o-mini=0.2)`);
    table[model] = num(`model-noise ${model}`, rate, probability);
  }
  return table;
}

/** `--faults` (inline JSON or a file) plus the all-endpoint shortcuts (`--fail-rate` …), which fill `'*'`. */
function faultsFrom(flags: SimFlags): FaultConfig {
  let config: FaultConfig = {};
  if (flags.faults) {
    const text = flags.faults.trim().startsWith('{') || !existsSync(flags.faults) ? flags.faults : readFileSync(flags.faults, 'utf8');
    try {
      config = parseFaultConfig(JSON.parse(text));
    } catch (err) {
      throw new Error(`--faults: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const all: EndpointFaults = { ...config['*'] };
  if (flags.failRate !== undefined) all.failRate = num('fail-rate', flags.failRate, probability);
  if (flags.asyncFailRate !== undefined) all.asyncFailRate = num('async-fail-rate', flags.asyncFailRate, probability);
  if (flags.dropRate !== undefined) all.dropRate = num('drop-rate', flags.dropRate, probability);
  if (flags.extraLatency !== undefined) all.extraLatencyMs = num('extra-latency', flags.extraLatency, { min: 0 });
  if (flags.processingDelay !== undefined) all.processingDelayMs = num('processing-delay', flags.processingDelay, { min: 0 });
  if (flags.rateLimitBurst !== undefined) all.rateLimitBurst = num('rate-limit-burst', flags.rateLimitBurst, { min: 0, integer: true });
  return Object.keys(all).length > 0 ? { ...config, '*': all } : config;
}

/** Turns the CLI flags into simulator options; throws with the flag at fault. */
export function optionsFromFlags(flags: SimFlags): SimulatorOptions {
  return {
    port: num('port', flags.port, { min: 0, max: 65535, integer: true }),
    host: flags.host,
    ...(flags.fixtures ? { fixtures: flags.fixtures } : {}),
    latencyScale: num('latency-scale', flags.latencyScale, { min: 0 }),
    rateLimit: num('rate-limit', flags.rateLimit, { min: 0, integer: true }),
    rateLimitWindow: flags.rateLimitWindow as SimulatorOptions['rateLimitWindow'],
    rateLimitScope: flags.rateLimitScope as SimulatorOptions['rateLimitScope'],
    seed: num('seed', flags.seed, { integer: true }),
    ...(flags.modelNoise !== undefined ? { modelNoise: modelNoise(flags.modelNoise) } : {}),
    ...(flags.retention !== undefined ? { retentionMs: num('retention', flags.retention, { min: 0 }) } : {}),
    closedSessionChat: flags.closedSessionChat as SimulatorOptions['closedSessionChat'],
    closeUnknownSession: flags.closeUnknownSession as SimulatorOptions['closeUnknownSession'],
    listLimitPolicy: flags.listLimitPolicy as SimulatorOptions['listLimitPolicy'],
    unknownModel: flags.unknownModel as SimulatorOptions['unknownModel'],
    feedbackResubmit: flags.feedbackResubmit as SimulatorOptions['feedbackResubmit'],
    feedbackUuidCheck: flags.feedbackUuidCheck as SimulatorOptions['feedbackUuidCheck'],
    sessionOrder: flags.sessionOrder as SimulatorOptions['sessionOrder'],
    idFormat: flags.idFormat as SimulatorOptions['idFormat'],
    timestamps: flags.timestamps as SimulatorOptions['timestamps'],
    errorBody: flags.errorBody as SimulatorOptions['errorBody'],
    limitsBody: flags.limitsBody as SimulatorOptions['limitsBody'],
    extraFields: flags.extraFields ?? false,
    ...(flags.basePath !== undefined ? { basePath: flags.basePath } : {}),
    retryAfterSeconds: flags.retryAfter === 'none' ? null : num('retry-after', flags.retryAfter, { min: 0, integer: true }),
    retryAfterFormat: flags.retryAfterFormat as SimulatorOptions['retryAfterFormat'],
    syncConfidence: flags.syncConfidence,
    statusConfidence: flags.statusConfidence,
    trustForwardedFor: flags.trustForwardedFor ?? false,
    ...(flags.state ? { state: flags.state } : {}),
    ...(flags.adminToken ? { adminToken: flags.adminToken } : {}),
    faults: faultsFrom(flags),
  };
}

/** `sitechat sim`: starts the simulator, prints where it is, stops on SIGINT/SIGTERM. Resolves to the exit code. */
export async function simAction(flags: SimFlags, log: Logger): Promise<number> {
  let sim: SimulatorHandle;
  try {
    sim = await startSimulator(optionsFromFlags(flags));
  } catch (err) {
    // Bad flags, fixtures or state file: nothing is listening yet.
    if ((err as { code?: unknown }).code === 'EADDRINUSE') {
      log.error(`port ${flags.port} on ${flags.host} is taken (another simulator?): pick another with --port, or --port 0 for a free one (it is printed)`);
      return 3;
    }
    log.error(err instanceof Error ? err.message : String(err));
    return 2;
  }
  const adminUrl = `${sim.origin}/__sim`;
  // A generated token is printed once, here: it is the only way to learn it. A given one is never echoed.
  const generated = sim.adminToken !== null && !flags.adminToken ? sim.adminToken : undefined;
  if (flags.json) log.out(JSON.stringify({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, adminUrl, judgeBaseUrl: sim.judgeBaseUrl, ...(generated ? { adminToken: generated } : {}) }));
  else {
    log.out(`Site Chat simulator listening on ${sim.baseUrl}`);
    log.out(`API key (demo-tenant):  ${sim.apiKey}`);
    log.out(`site:                   ${DEMO.siteId}`);
    log.out(`admin:                  ${adminUrl}/stats, ${adminUrl}/faults, ${adminUrl}/reset`);
    log.out(`judge (test double):    ${sim.judgeBaseUrl} (any model, any bearer key)`);
    if (generated) log.out(`admin token:            ${generated}  (send as Authorization: Bearer …; fix one with --admin-token or SITECHAT_SIM_ADMIN_TOKEN)`);
    else if (sim.adminToken !== null) log.out('admin token:            the one given (--admin-token / SITECHAT_SIM_ADMIN_TOKEN)');
    log.info(`export SITECHAT_BASE_URL=${sim.baseUrl} SITECHAT_API_KEY=${sim.apiKey} SITECHAT_SITE_ID=${DEMO.siteId}`);
  }
  const faults = sim.getFaults();
  if (Object.keys(faults).length > 0) log.info(`faults: ${JSON.stringify(faults)}`);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      log.info(`${signal}: stopping the simulator`);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sim.close();
  return 0;
}
