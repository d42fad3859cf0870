/**
 * Constants shared by the simulator, its tests and the CLI. Error strings are the exact `error`
 * values of spec §7; the ones marked "simulator decision" fill gaps the spec leaves open.
 */

/** The demo API key of `datasets/knowledge-base.json` (tenant `demo-tenant`, plan level2). */
export const DEMO_API_KEY = 'sk-sim-demo-0000';

/** Identifiers and keys of the built-in demo fixtures, for tests and the CLI. */
export const DEMO = {
  tenantId: 'demo-tenant',
  siteId: 'demo-site',
  apiKey: DEMO_API_KEY,
  /** Same tenant, `expiresAt` in the past. */
  expiredKey: 'sk-sim-demo-expired',
  /** Same tenant, `revoked: true`. */
  revokedKey: 'sk-sim-demo-revoked',
  /** A second level3 tenant, to test tenancy isolation. */
  otherTenantId: 'other-tenant',
  otherSiteId: 'other-site',
  otherApiKey: 'sk-sim-other-0000',
  /** A level1 tenant: valid key, no API access (403). */
  level1TenantId: 'basic-tenant',
  level1SiteId: 'basic-site',
  level1ApiKey: 'sk-sim-basic-0000',
} as const;

/**
 * Longest chat `message` the simulator accepts by default, in characters. The spec does not show the API's limit
 * (§8); the runner refuses longer questions when it validates a dataset (`RowLimit.questionChars`), so the two agree:
 * a question the runner sends is never a 400 here, and one the simulator would refuse never leaves the runner.
 */
export const MAX_MESSAGE_LENGTH = 16_000;

/** `error` strings of the API (spec §7) plus the simulator's own decisions for unspecified cases. */
export const ApiError = {
  invalidLimitOrOffset: 'invalid limit or offset',
  sessionIdRequired: 'session_id is required',
  invalidPayload: 'invalid payload',
  invalidFeedback: "feedback must be 'good' or 'bad'",
  statusParamsRequired: 'site id and request id are required',
  invalidApiKey: 'invalid_api_key',
  planLacksApiAccess: 'api_access_not_available_on_plan',
  siteNotFound: 'site not found',
  requestNotFound: 'request not found',
  feedbackConflict: 'feedback can only be submitted for completed responses',
  tooManyRequests: 'too many requests. please try again later',
  ragFailure: 'failed to call rag service',
  /** Simulator decision: chat on a closed session (409). */
  sessionClosed: 'session is closed',
  /** Simulator decision: close of an unknown session (404). */
  sessionNotFound: 'session not found',
  /** Simulator decision: sync chat reached its ceiling (504). */
  syncTimeout: 'request timed out',
  notFound: 'not found',
  methodNotAllowed: 'method not allowed',
  bodyTooLarge: 'request body too large',
} as const;

/** `message` of the 403 body: names the plans with API access. */
export const PLAN_MESSAGE =
  'The M2M API is available on the Level 2 and Level 3 plans. Upgrade your plan to use the API.';

/** Endpoint names used in stats and fault configuration. */
export const Endpoint = {
  sessionsList: 'sessions.list',
  sessionsClose: 'sessions.close',
  chatSync: 'chat.sync',
  chatAsync: 'chat.async',
  requestStatus: 'requests.status',
  feedback: 'feedback.submit',
  tenantLimits: 'tenants.limits',
  documentsCreate: 'documents.create',
  documentsList: 'documents.list',
  /** `POST /v1/chat/completions`: the OpenAI-compatible judge route (a test double, not part of the Site Chat API). */
  judgeChat: 'judge.chat',
} as const;
export type EndpointName = (typeof Endpoint)[keyof typeof Endpoint];
export const ENDPOINT_NAMES: readonly EndpointName[] = Object.values(Endpoint);

/** Answer text when retrieval finds nothing relevant. */
export const I_DONT_KNOW =
  "I don't know the answer to that. I couldn't find anything about it in the help center.";

/** Path prefixes. The base URL handed to clients is `http://host:port/api/v1` (unless `basePath` says otherwise). */
export const API_PREFIX = '/api/v1';
export const M2M_PREFIX = '/api/v1/m2m/';
export const ADMIN_PREFIX = '/__sim/';
/** The judge route's prefix: the judge's base URL is `http://host:port/v1`. */
export const JUDGE_PREFIX = '/v1';
