import { describe, expect, it } from 'vitest';
import {
  APIConnectionError, APIConnectionTimeoutError, AuthenticationError, BadRequestError, ConfigurationError, InternalServerError,
  NotFoundError, PermissionDeniedError, RateLimitError, RequestValidationError, ResponseValidationError, UnexpectedStatusError,
} from '../../../src/api/errors';
import { CheckOutcome, diagnose, type CheckTarget } from '../../../src/check';
import { classifyNetworkError } from '../../../src/check/network';

const site: CheckTarget = { check: 'site', id: 'shop', baseUrl: 'https://api.example.com/api/v1', timeoutMs: 5000 };
const tenant: CheckTarget = { ...site, check: 'tenant', id: 'acme' };
const sysErr = (code: string): Error => Object.assign(new Error(`connect ${code}`), { code });

describe('diagnose: HTTP outcomes', () => {
  it('401 names SITECHAT_API_KEY and whose key it must be', () => {
    const err = new AuthenticationError('x', { status: 401, error: 'invalid_api_key' });
    const d = diagnose(err, site);
    expect(d).toMatchObject({ outcome: CheckOutcome.auth, status: 401, error: 'invalid_api_key' });
    // Worded as a run's reports word the cause (src/analysis/cause.ts), then what this check knows.
    expect(d.diagnosis).toMatch(/^the API refused the key \(401 invalid_api_key\): check SITECHAT_API_KEY and that the key belongs to the tenant that owns site "shop"/);
    expect(d.diagnosis).toMatch(/expired, revoked or of another tenant/);
    expect(diagnose(err, tenant).diagnosis).toMatch(/tenant "acme" .*SITECHAT_TENANT_ID.* key's own tenant/);
  });

  it('403 names the Level 2 and Level 3 plans and repeats the API message', () => {
    const d = diagnose(new PermissionDeniedError('x', { status: 403, error: 'api_access_not_available_on_plan', apiMessage: 'Upgrade.' }), site);
    expect(d.outcome).toBe(CheckOutcome.plan);
    expect(d.diagnosis).toMatch(/Level 2 and Level 3/);
    expect(d.diagnosis).toMatch(/API: "Upgrade\."/);
  });

  it('404: an unknown site, or an endpoint that is not there (wrong base URL)', () => {
    expect(diagnose(new NotFoundError('x', { status: 404, error: 'site not found' }), site).diagnosis).toMatch(/site "shop" does not exist or belongs to another tenant/);
    const other = diagnose(new NotFoundError('x', { status: 404, error: 'not found' }), tenant);
    expect(other.outcome).toBe(CheckOutcome.notFound);
    expect(other.diagnosis).toMatch(/SITECHAT_BASE_URL/);
  });

  it('429 says to wait a second and gives the limit', () => {
    const d = diagnose(new RateLimitError('x', { status: 429, error: 'too many requests. please try again later' }), site);
    expect(d.outcome).toBe(CheckOutcome.rateLimited);
    expect(d.diagnosis).toMatch(/Wait a second.*5 requests per second per client IP and request path/);
  });

  it('5xx is the service side', () => {
    const d = diagnose(new InternalServerError('x', { status: 503, error: 'failed to call rag service' }), site);
    expect(d).toMatchObject({ outcome: CheckOutcome.server, status: 503 });
    expect(d.diagnosis).toMatch(/^503 failed to call rag service: the service failed on its side/);
  });

  it('other statuses and foreign bodies point at the base URL', () => {
    expect(diagnose(new UnexpectedStatusError('x', { status: 302 }), site)).toMatchObject({ outcome: CheckOutcome.unexpected });
    expect(diagnose(new BadRequestError('x', { status: 400, error: 'invalid limit or offset' }), site).outcome).toBe(CheckOutcome.unexpected);
    const bad = diagnose(new ResponseValidationError('x', { status: 200, issues: [{ path: 'pagination', message: 'required' }] }), site);
    expect(bad.outcome).toBe(CheckOutcome.badResponse);
    expect(bad.diagnosis).toMatch(/`pagination`.*SITECHAT_BASE_URL/);
  });

  it('configuration errors keep the client message', () => {
    expect(diagnose(new ConfigurationError('SITECHAT_BASE_URL must end with /api/v1, got http://x'), site))
      .toEqual({ outcome: CheckOutcome.config, diagnosis: 'SITECHAT_BASE_URL must end with /api/v1, got http://x' });
    expect(diagnose(new RequestValidationError('bad id', { issues: [] }), site).outcome).toBe(CheckOutcome.config);
  });
});

describe('diagnose: network outcomes by cause code', () => {
  const net = (cause: unknown): ReturnType<typeof diagnose> => diagnose(new APIConnectionError('x', { cause }), site);

  it.each([
    ['ENOTFOUND', CheckOutcome.dns, /resolve the host "api.example.com"/],
    ['EAI_AGAIN', CheckOutcome.dns, /DNS/],
    ['ECONNREFUSED', CheckOutcome.refused, /nothing listens there/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', CheckOutcome.tls, /does not speak TLS on this port/],
    ['EPROTO', CheckOutcome.tls, /does not speak TLS/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', CheckOutcome.tls, /certificate is not trusted.*NODE_EXTRA_CA_CERTS/],
    ['CERT_HAS_EXPIRED', CheckOutcome.tls, /expired/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', CheckOutcome.tls, /another host name/],
    ['ETIMEDOUT', CheckOutcome.timeout, /within 5000 ms/],
    ['UND_ERR_HEADERS_TIMEOUT', CheckOutcome.timeout, /raise --timeout/],
    ['ECONNRESET', CheckOutcome.reset, /closed before an answer/],
    ['EHOSTUNREACH', CheckOutcome.unreachable, /unreachable/],
    ['EWHATEVER', CheckOutcome.network, /could not reach api.example.com \(EWHATEVER\)/],
  ])('%s → %s', (code, outcome, text) => {
    const d = net(sysErr(code));
    expect(d.outcome).toBe(outcome);
    expect(d.code).toBe(code);
    expect(d.diagnosis).toMatch(text);
  });

  it('finds the code in nested causes and in AggregateError members (one per address tried)', () => {
    const agg = new AggregateError([sysErr('ECONNREFUSED'), sysErr('ECONNREFUSED')], 'all failed');
    expect(classifyNetworkError(new Error('wrap', { cause: agg }))).toEqual({ kind: 'refused', code: 'ECONNREFUSED' });
  });

  it('a timeout error class without a code is a timeout', () => {
    const d = diagnose(new APIConnectionTimeoutError('x', { cause: Object.assign(new Error('t'), { name: 'ConnectTimeoutError' }) }), site);
    expect(d.outcome).toBe(CheckOutcome.timeout);
  });
});
