import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NON_RETRYABLE_ERROR_TYPES,
  NotFoundError,
  SiteNotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  type SiteChatClient,
  SiteChatError,
  UnexpectedStatusError,
} from '../../../src/api';
import { withServer } from './server';

type Call = (c: SiteChatClient) => Promise<unknown>;

const CALLS = {
  'session list': { endpoint: 'GET /m2m/sites/{site_id}/sessions', call: (c) => c.sessions.list('site-1') },
  'session close': { endpoint: 'POST /m2m/sites/{site_id}/chat/session/close', call: (c) => c.chat.closeSession('site-1', 's-1') },
  'chat sync': { endpoint: 'POST /m2m/sites/{site_id}/chat', call: (c) => c.chat.send('site-1', { message: 'hi', email: 'a@example.com' }) },
  'chat async': { endpoint: 'POST /m2m/sites/{site_id}/chat/async', call: (c) => c.chat.submit('site-1', { message: 'hi', session_id: 's-1' }) },
  feedback: {
    endpoint: 'POST /m2m/sites/{site_id}/chat/feedback',
    call: (c) => c.feedback.submit('site-1', { session_id: 's-1', request_id: 'r-1', feedback: 'good' }),
  },
  status: { endpoint: 'GET /m2m/sites/{site_id}/chat/requests/{request_id}', call: (c) => c.requests.get('site-1', 'r-1') },
  limits: { endpoint: 'GET /m2m/tenants/{tenant_id}/limits', call: (c) => c.tenants.limits('tenant-1') },
} satisfies Record<string, { endpoint: string; call: Call }>;
type Name = keyof typeof CALLS;
const ALL = Object.keys(CALLS) as Name[];

const PLAN_MESSAGE = 'API access is available on Level 2 and Level 3 plans';

/** Every row of spec §7, expanded to each endpoint it lists. */
const ROWS: { status: number; error: string; cls: typeof SiteChatError; retryable: boolean; on: Name[]; hint: RegExp }[] = [
  { status: 400, error: 'invalid limit or offset', cls: BadRequestError, retryable: false, on: ['session list'], hint: /fix the request/ },
  { status: 400, error: 'session_id is required', cls: BadRequestError, retryable: false, on: ['session close'], hint: /fix the request/ },
  { status: 400, error: 'invalid payload', cls: BadRequestError, retryable: false, on: ['chat sync', 'chat async'], hint: /fix the request/ },
  { status: 400, error: "feedback must be 'good' or 'bad'", cls: BadRequestError, retryable: false, on: ['feedback'], hint: /fix the request/ },
  { status: 400, error: 'site id and request id are required', cls: BadRequestError, retryable: false, on: ['status'], hint: /fix/ },
  { status: 401, error: 'invalid_api_key', cls: AuthenticationError, retryable: false, on: ALL, hint: /check SITECHAT_API_KEY/ },
  { status: 403, error: 'api_access_not_available_on_plan', cls: PermissionDeniedError, retryable: false, on: ALL, hint: /lacks M2M API access \(API: "API access is available on Level 2 and Level 3 plans"\) — upgrade the plan/ },
  {
    status: 404,
    error: 'site not found',
    cls: SiteNotFoundError,
    retryable: false,
    on: ['session list', 'session close', 'chat sync', 'chat async'],
    hint: /check the site id/,
  },
  { status: 404, error: 'request not found', cls: NotFoundError, retryable: false, on: ['feedback', 'status'], hint: /check the request id/ },
  {
    status: 409,
    error: 'feedback can only be submitted for completed responses',
    cls: ConflictError,
    retryable: false,
    on: ['feedback'],
    hint: /until it is completed/,
  },
  { status: 429, error: 'too many requests. please try again later', cls: RateLimitError, retryable: true, on: ALL, hint: /wait at least 1 s/ },
  { status: 500, error: 'failed to call rag service', cls: InternalServerError, retryable: true, on: ALL, hint: /retry with exponential backoff/ },
];

const CASES = ROWS.flatMap((row) => row.on.map((name) => ({ ...row, name, label: `${row.status} ${row.error} on ${name}` })));

let next: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: '{}' };
let env: Awaited<ReturnType<typeof withServer>>;

beforeAll(async () => {
  env = await withServer((_req, res) => {
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(next.body);
  });
});
afterAll(() => env.close());

async function failure(call: Call): Promise<SiteChatError> {
  const err: unknown = await call(env.client).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SiteChatError);
  return err as SiteChatError;
}

describe('spec §7 error rows', () => {
  it.each(CASES)('$label', async ({ status, error, cls, retryable, name, hint }) => {
    const body = status === 403 ? { error, message: PLAN_MESSAGE } : { error };
    next = { status, body: JSON.stringify(body) };
    const err = await failure(CALLS[name].call);
    expect(err).toBeInstanceOf(cls);
    expect(err.name).toBe(cls.name);
    expect(err.status).toBe(status);
    expect(err.error).toBe(error);
    expect(err.retryable).toBe(retryable);
    expect(err.endpoint).toBe(CALLS[name].endpoint);
    expect(err.message).toContain(`${status} ${error} from ${CALLS[name].endpoint}: `);
    expect(err.message).toMatch(hint);
    expect(NON_RETRYABLE_ERROR_TYPES.includes(err.name)).toBe(!retryable);
    if (status === 403) {
      expect(err.apiMessage).toBe(PLAN_MESSAGE);
      expect(err.message).toContain(`(API: "${PLAN_MESSAGE}")`);
    }
  });

  it('401 message reads as documented', async () => {
    next = { status: 401, body: JSON.stringify({ error: 'invalid_api_key' }) };
    const err = await failure(CALLS['session list'].call);
    expect(err.message).toBe(
      '401 invalid_api_key from GET /m2m/sites/{site_id}/sessions: the API key is missing, invalid, expired, revoked or belongs to another tenant — check SITECHAT_API_KEY',
    );
  });
});

describe('other error bodies and statuses', () => {
  it('a non-JSON body still yields the right class, error = first 200 chars of its text', async () => {
    const html = `<html>${'x'.repeat(300)}</html>`;
    next = { status: 502, body: html, headers: { 'content-type': 'text/html' } };
    const err = await failure(CALLS.feedback.call);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.retryable).toBe(true);
    expect(err.error).toBe('x'.repeat(200));
    next = { status: 503, body: `Service Unavailable${' '.repeat(10)}${'y'.repeat(300)}`, headers: { 'content-type': 'text/plain' } };
    expect((await failure(CALLS.feedback.call)).error).toBe(next.body.slice(0, 200));
  });

  it('an HTML error page (a proxy\'s or a framework\'s) gives its title without the status, not its markup', async () => {
    const nginx = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    next = { status: 502, body: nginx, headers: { 'content-type': 'text/html' } };
    const err = await failure(CALLS['chat async'].call);
    expect(err).toMatchObject({ name: 'InternalServerError', status: 502, error: 'Bad Gateway', retryable: true });
    expect(err.message).toMatch(/^502 Bad Gateway from POST \/m2m\/sites\/\{site_id\}\/chat\/async: the service or one of its dependencies failed/);
    next = { status: 404, body: '<!DOCTYPE html>\n<html><body><h1>Not&nbsp;Found &amp; gone</h1><script>var x = "<p>";</script></body></html>' };
    expect(await failure(CALLS.status.call)).toMatchObject({ name: 'NotFoundError', error: 'Not Found & gone' });
  });

  it('a 409 on chat (a server that refuses chat in a closed session) says so, not the feedback hint', async () => {
    next = { status: 409, body: '{"error":"session is closed"}' };
    const chat = await failure(CALLS['chat async'].call);
    expect(chat).toMatchObject({ name: 'ConflictError', error: 'session is closed', retryable: false });
    expect(chat.message).toContain('a closed session takes no new messages');
    expect(chat.message).not.toContain('feedback');
    expect((await failure(CALLS['chat sync'].call)).message).toContain('ask in a new session_id');
  });

  it('an error body that names its request (sync chat at its ceiling) keeps the ids for a status lookup', async () => {
    next = { status: 504, body: '{"error":"request timed out","request_id":"r-1","session_id":"s-1"}' };
    const err = await failure(CALLS.status.call);
    expect(err.status).toBe(504);
    expect(err.requestId).toBe('r-1');
    expect(err.sessionId).toBe('s-1');
  });

  it('a JSON body without `error` and an empty body are tolerated', async () => {
    next = { status: 503, body: '{"detail":"down"}' };
    expect((await failure(CALLS.status.call)).error).toBe('{"detail":"down"}');
    next = { status: 500, body: '' };
    const err = await failure(CALLS.limits.call);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.error).toBeUndefined();
    expect(err.message).toMatch(/^500 from GET \/m2m\/tenants\/\{tenant_id\}\/limits: /);
  });

  it('429 captures Retry-After in seconds', async () => {
    next = { status: 429, body: '{"error":"too many requests. please try again later"}', headers: { 'retry-after': '2' } };
    const err = await failure(CALLS['chat async'].call);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(2000);
    expect(err.message).toContain('Retry-After: 2000 ms');
  });

  it('429 captures Retry-After as an HTTP date; absent → undefined', async () => {
    const at = new Date(Date.now() + 5000).toUTCString();
    next = { status: 429, body: '{"error":"too many requests. please try again later"}', headers: { 'retry-after': at } };
    const dated = (await failure(CALLS.status.call)) as RateLimitError;
    expect(dated.retryAfterMs).toBeGreaterThan(2000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(5000);
    next = { status: 429, body: '{"error":"too many requests. please try again later"}' };
    expect(((await failure(CALLS.status.call)) as RateLimitError).retryAfterMs).toBeUndefined();
  });

  it('408 (a proxy that did not get the whole request) → RequestTimeoutError, retryable', async () => {
    next = { status: 408, body: '<html>Request Timeout</html>' };
    const err = await failure(CALLS['chat async'].call);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(err).toMatchObject({ name: 'RequestTimeoutError', status: 408, retryable: true });
    expect(err.message).toContain('retry with backoff');
  });

  it.each([301, 418, 422])('status %i → UnexpectedStatusError, not retryable', async (status) => {
    next = { status, body: '{"error":"odd"}' };
    const err = await failure(CALLS['session list'].call);
    expect(err).toBeInstanceOf(UnexpectedStatusError);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('SITECHAT_BASE_URL');
  });
});

describe('NON_RETRYABLE_ERROR_TYPES', () => {
  it('lists the non-retryable classes by name', () => {
    expect([...NON_RETRYABLE_ERROR_TYPES].sort()).toEqual(
      [
        'AuthenticationError',
        'BadRequestError',
        'ConfigurationError',
        'ConflictError',
        'NotFoundError',
        'PermissionDeniedError',
        'RequestValidationError',
        'SiteNotFoundError',
        'ResponseValidationError',
        'UnexpectedStatusError',
      ].sort(),
    );
    expect(Object.isFrozen(NON_RETRYABLE_ERROR_TYPES)).toBe(true);
  });
});
