import { Runtime } from '@temporalio/worker';
import { SiteChatClient } from '../src/api';
import { HostPacer, siteBudget } from '../src/ratelimit/pacer';
import { SlidingWindowLimiter } from '../src/ratelimit/slidingWindow';
import { openStore } from '../src/store/open';
import { Secret } from '../src/api/secret';
import { JudgeCache } from '../src/grading/judge/cache';
import { JUDGE_DEFAULTS } from '../src/grading/judge/settings';
import { createJudge } from '../src/grading/judge/openaiJudge';
import { DEFAULT_NEW_REQUEST_GRACE_MS, DEFAULT_STORE_OUTAGE_LIMIT_MS, type WorkerConfig } from '../src/temporal/workerConfig';
import { measuredAsk } from './metrics';
import { buildInfo } from '../src/shared/buildInfo';
import { AnswerSource, hostOf, type WorkerProvenance } from '../src/domain/provenance';
import { workerApi } from '../src/api/identity';
import { askActivity, statusPollerFor } from './ask';
import { cleanupActivities } from './cleanup';
import { confirmActivities } from './confirm';
import type { ActivityDeps } from './deps';
import { finalizeActivities } from './finalizeRun';
import { settleAndRecordActivities } from './settleAndRecord';
import { settleRowsActivity } from './settleRows';
import { gradeActivities } from './grade';
import { judgeActivities } from './judge';
import { labelFeedbackActivities } from './labelFeedback';
import { multiSiteActivities } from './multiSite';
import { notifyActivities } from './notify';
import { planActivities } from './plan';
import { PlanMetadata } from './planRows';
import { ResumeIndex } from './resume';
import { sessionActivities } from './sessions';
import { waitingOutStoreOutages } from './storeOutage';
import { apiObserver } from '../src/observability/apiObserver';

export type { ActivityDeps } from './deps';

/** The worker's logger, looked up when used: the worker installs its runtime after building the activities. */
const workerLog = { warn: (msg: string): void => Runtime.instance().logger.warn(msg) };

function buildActivities(deps: ActivityDeps) {
  const wrapped = waitingOutStoreOutages({
    ask: measuredAsk(askActivity(deps)),
    ...planActivities(deps),
    ...sessionActivities(deps),
    ...settleAndRecordActivities(deps),
    settleRows: settleRowsActivity(deps),
    ...finalizeActivities(deps),
    ...confirmActivities(deps),
    ...gradeActivities(deps),
    ...judgeActivities(deps),
    ...cleanupActivities(deps),
    ...multiSiteActivities(deps),
    ...labelFeedbackActivities(deps),
  }, deps.storeOutageLimitMs);
  // Not wrapped: the wrapper makes main-queue errors final from its 5th attempt and drops a Retry-After, while the
  // notify activity keeps retrying a receiver's 429/5xx up to its own limit and records the last failure itself.
  return { ...wrapped, ...notifyActivities(deps) };
}

/** Every activity of the runner; workflows import this *type* only. */
export type RunActivities = ReturnType<typeof buildActivities>;

/** What this worker's reports say about where their answers and grades come from: hosts, never URLs or keys. */
export function workerProvenance(config: WorkerConfig): WorkerProvenance {
  const simulated = config.builtInSimulator !== undefined;
  return {
    answers: { from: simulated ? AnswerSource.simulator : AnswerSource.api, host: hostOf(config.baseUrl) },
    ...(config.judge && { judge: { model: config.judge.model, host: hostOf(config.judge.baseUrl), simulator: config.builtInSimulator?.judge === true } }),
    runner: buildInfo(),
  };
}

/**
 * Builds the activities from the worker's configuration. The API key goes into the HTTP client here and
 * nowhere else: activities receive site ids, never keys.
 */
export function createActivities(config: WorkerConfig, overrides: Partial<ActivityDeps> = {}): { activities: RunActivities; close: () => Promise<void> } {
  const api = overrides.api ?? new SiteChatClient({ baseUrl: config.baseUrl, apiKey: config.apiKey, observer: apiObserver });
  const runsDir = overrides.runsDir ?? config.runsDir;
  // SITECHAT_STORE_URL (PostgreSQL) or the runs directory; the URL is revealed to the pool only. An injected store
  // comes with its plans (or the runs directory's).
  const opened = openStore(runsDir, overrides.store ? undefined : config.storeUrl?.reveal());
  const store = overrides.store ?? opened.store;
  const plans = overrides.plans ?? opened.plans;
  const secrets = [new Secret(config.apiKey), ...(config.judge ? [config.judge.apiKey] : [])];
  const settings = {
    api,
    store,
    plans,
    notifyLedger: overrides.notifyLedger ?? opened.ledger,
    notifyEnv: overrides.notifyEnv,
    planMetadata: overrides.planMetadata ?? new PlanMetadata(plans),
    resume: overrides.resume ?? new ResumeIndex(store),
    limiter: overrides.limiter ?? new HostPacer(config.pacerDir, config.baseUrl, siteBudget(config.ratePerSecond, config.siteRates)),
    runsDir,
    pollIntervalMs: overrides.pollIntervalMs ?? config.pollIntervalMs,
    firstPollDelayMs: overrides.firstPollDelayMs ?? config.pollIntervalMs,
    minPollGapMs: overrides.minPollGapMs ?? (config.ratePerSecond > 0 ? Math.ceil(1000 / config.ratePerSecond) : 0),
    pollScope: overrides.pollScope ?? config.pollScope,
    newRequestGraceMs: overrides.newRequestGraceMs ?? config.newRequestGraceMs ?? DEFAULT_NEW_REQUEST_GRACE_MS,
    routePacedSites: overrides.routePacedSites ?? new Set(),
    // The judge key goes into its client here, like the API key: activities see requests, never keys.
    judge: overrides.judge ?? (config.judge ? createJudge(config.judge) : undefined),
    judgeCache: overrides.judgeCache ?? JudgeCache.inRunsDir(runsDir),
    judgeLimiter: overrides.judgeLimiter ?? new SlidingWindowLimiter(config.judge?.rpm ?? JUDGE_DEFAULTS.rpm, 60_000),
    judgeMaxAttempts: overrides.judgeMaxAttempts ?? config.judge?.maxAttempts ?? JUDGE_DEFAULTS.maxAttempts,
    judgeMaxRetryAfterMs: overrides.judgeMaxRetryAfterMs ?? config.judge?.maxRetryAfterMs ?? JUDGE_DEFAULTS.maxRetryAfterMs,
    gradersDir: 'gradersDir' in overrides ? overrides.gradersDir : config.gradersDir,
    scrub: overrides.scrub ?? ((text) => secrets.reduce((out, secret) => secret.scrub(out), text)),
    storeOutageLimitMs: overrides.storeOutageLimitMs ?? config.storeOutageLimitMs ?? DEFAULT_STORE_OUTAGE_LIMIT_MS,
    provenance: overrides.provenance ?? workerProvenance(config),
    apiIdentity: overrides.apiIdentity ?? workerApi(config),
  } satisfies Omit<ActivityDeps, 'statusPoller'>;
  const deps: ActivityDeps = { ...settings, statusPoller: overrides.statusPoller ?? statusPollerFor(settings, workerLog) };
  const close = async (): Promise<void> => {
    await Promise.all([overrides.api ? undefined : api.close(), opened.close()]);
  };
  return { activities: buildActivities(deps), close };
}
