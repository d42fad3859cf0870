import type { SiteChatClient } from '../src/api';
import type { JudgeCache } from '../src/grading/judge/cache';
import type { PlanStore } from '../src/store/store';
import type { NotificationLedger } from '../src/store/store';
import type { Judge } from '../src/grading/judge/types';
import type { Pacer } from '../src/ratelimit/pacer';
import type { SlidingWindowLimiter } from '../src/ratelimit/slidingWindow';
import type { WorkerProvenance } from '../src/domain/provenance';
import type { ApiIdentity } from '../src/api/identity';
import type { ResultsStore } from '../src/store/store';
import type { PollScope } from '../src/temporal/workerConfig';
import type { PlanMetadata } from './planRows';
import type { ResumeIndex } from './resume';
import type { StatusPoller } from './statusPoller';

/** What the activities are built from; the worker injects them, tests may replace any. */
export interface ActivityDeps {
  /** Holds the API key; nothing else in the activities sees it. */
  api: SiteChatClient;
  store: ResultsStore;
  /** Where work plans live: beside the results (files under `runsDir`, or the PostgreSQL store's database). */
  plans: PlanStore;
  /** Rows' metadata columns, read back from the plan for recording and custom grading. */
  planMetadata: PlanMetadata;
  /**
   * Paces every API call by what the API counts (client IP and path): each key's budget is shared by all worker
   * processes of this host. Keys are `METHOD /path`.
   */
  limiter: Pacer;
  /** Where reports, the judge cache and cleanup reports live on this worker (and the file store's root). */
  runsDir: string;
  /** @default 1000 */
  pollIntervalMs: number;
  /** @default 1000 */
  firstPollDelayMs: number;
  /** The shortest gap between two polls of one request: one path's budget (1000 / SITECHAT_RATE_LIMIT ms). @default 200 */
  minPollGapMs: number;
  /**
   * A 404 on the status of a request the API returned less than this long ago is polled again, not final
   * (SITECHAT_NEW_REQUEST_GRACE_MS). @default 30000
   */
  newRequestGraceMs: number;
  /** How the API counts status polls (SITECHAT_POLL_SCOPE). @default 'path' */
  pollScope: PollScope;
  /**
   * Sites whose status polls this worker paces per route: all of them under `route`, and under `path` each site
   * that answered a poll with 429 (its server counts the route after all). Lives as long as the worker.
   */
  routePacedSites: Set<string>;
  /** The worker's one loop over the requests in flight (built from the settings above unless given). */
  statusPoller: StatusPoller;
  /** Answers an earlier attempt of a resumed run recorded. */
  resume: ResumeIndex;
  /** The LLM judge; absent when the worker has no `SITECHAT_JUDGE_*` settings (judge assertions then fail the row). */
  judge?: Judge;
  /** Verdicts already paid for. @default `<runsDir>/.judge-cache/` */
  judgeCache: JudgeCache;
  /**
   * At most SITECHAT_JUDGE_RPM judge calls in any minute from this worker: what a provider counts. The judge queue's
   * per-second limits spread the calls; this bounds the bursts those limits let through.
   */
  judgeLimiter: SlidingWindowLimiter;
  /**
   * The only directory custom grader modules load from (SITECHAT_GRADERS_DIR; the config's directory on the CLI's
   * own worker). @default none: custom graders are refused
   */
  gradersDir?: string;
  /** Removes the API key and the judge key from text that reaches results (custom graders' errors and reasons). */
  scrub: (text: string) => string;
  /** Attempts per judgement on retryable errors (SITECHAT_JUDGE_MAX_ATTEMPTS). @default 6 */
  judgeMaxAttempts: number;
  /** How long a store operation waits out an unreachable results store (SITECHAT_STORE_OUTAGE_LIMIT). @default 1 hour */
  storeOutageLimitMs: number;
  /** Notifications sent, by delivery id, beside the results (so a retry on another worker does not send again). */
  notifyLedger: NotificationLedger;
  /** Where webhook URLs and signing secrets are read, by the names a run gives. @default process.env */
  notifyEnv?: NodeJS.ProcessEnv;
  /** The longest wait a judge 429's `Retry-After` gets (SITECHAT_JUDGE_MAX_RETRY_AFTER_MS; 0 ignores it). @default 60000 */
  judgeMaxRetryAfterMs: number;
  /** Which API and judge this worker uses (hosts only) and its build: recorded with each run it starts. */
  provenance: WorkerProvenance;
  /** The API this worker asks (src/api/identity.ts): what a run it prepares without one asks (`RunOptions.api`). */
  apiIdentity: ApiIdentity;
}
