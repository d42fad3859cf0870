import {
  APIConnectionError,
  AuthenticationError,
  ConfigurationError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  SiteChatError,
} from '../api/errors';
import { hostOf } from '../api/shownUrl';
import { causeText } from '../analysis/cause';
import { classifyNetworkError, NetworkKind } from './network';

/** The outcome of one check, one value per diagnosis the user can act on. */
export const CheckOutcome = {
  ok: 'ok',
  skipped: 'skipped',
  auth: 'auth',
  plan: 'plan',
  notFound: 'not-found',
  rateLimited: 'rate-limited',
  server: 'server-error',
  unexpected: 'unexpected-status',
  badResponse: 'bad-response',
  config: 'config',
  ...NetworkKind,
} as const;
export type CheckOutcome = (typeof CheckOutcome)[keyof typeof CheckOutcome];

/** What was checked, for messages that name it. */
export interface CheckTarget {
  check: 'tenant' | 'site';
  id: string;
  baseUrl: string;
  timeoutMs: number;
}

export interface Diagnosis {
  outcome: CheckOutcome;
  status?: number;
  /** The API's `error` string. */
  error?: string;
  /** System / TLS / undici error code of a network failure. */
  code?: string;
  /** What happened and what to do, in plain words. */
  diagnosis: string;
}

const WRONG_PLACE = 'check that SITECHAT_BASE_URL points at the Site Chat API (…/api/v1), not at another service or a proxy';

function httpDiagnosis(err: SiteChatError, t: CheckTarget): Diagnosis {
  const head = `${err.status ?? ''}${err.error === undefined ? '' : ` ${err.error}`}`.trim();
  const d = (outcome: CheckOutcome, text: string): Diagnosis => ({ outcome, status: err.status, error: err.error, diagnosis: `${head}: ${text}` });
  // The causes a run's reports lead with are worded as the reports word them (src/analysis/cause.ts), with what this check knows.
  const cause = (outcome: CheckOutcome, more: string): Diagnosis => ({
    outcome, status: err.status, error: err.error, diagnosis: `${causeText({ type: err.name, status: err.status, error: err.error })} ${more}`,
  });
  if (err instanceof AuthenticationError) {
    const whose = t.check === 'tenant'
      ? `and that tenant "${t.id}" (--tenant / SITECHAT_TENANT_ID) is the key's own tenant`
      : `and that the key belongs to the tenant that owns site "${t.id}"`;
    return cause(CheckOutcome.auth, `${whose} (a key is refused when it is missing, mistyped, expired, revoked or of another tenant).`);
  }
  if (err instanceof PermissionDeniedError) {
    const said = err.apiMessage === undefined ? '' : ` (API: "${err.apiMessage}")`;
    return d(CheckOutcome.plan, `the key is valid, but its tenant's plan has no M2M API access${said}. API access comes with the Level 2 and Level 3 plans: upgrade the plan, or use a key of a tenant on one of them.`);
  }
  if (err instanceof NotFoundError) {
    if (t.check === 'site' && /site/i.test(err.error ?? '')) {
      return d(CheckOutcome.notFound, `site "${t.id}" does not exist or belongs to another tenant than the key. Check --site / SITECHAT_SITE_ID and the key's tenant.`);
    }
    return d(CheckOutcome.notFound, `the endpoint or ${t.check} "${t.id}" was not found — check the id, and ${WRONG_PLACE}.`);
  }
  if (err instanceof RateLimitError) {
    return d(CheckOutcome.rateLimited, 'rate limited. Wait a second and try again: the limit is 5 requests per second per client IP and request path, so runs and workers behind the same IP count too.');
  }
  if (err instanceof InternalServerError) {
    return d(CheckOutcome.server, 'the service failed on its side (e.g. its retrieval service or language-model provider). Nothing to change in your configuration: try again later, and tell the service operator if it persists.');
  }
  if (err instanceof ResponseValidationError) {
    return d(CheckOutcome.badResponse, `the answer is not what the Site Chat API sends (at \`${err.fieldPath}\`) — ${WRONG_PLACE}.`);
  }
  return d(CheckOutcome.unexpected, `this status is not part of the Site Chat API — ${WRONG_PLACE}.`);
}

const TLS_PLAIN = /^(EPROTO|ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG)$/;

function networkDiagnosis(err: unknown, t: CheckTarget): Diagnosis {
  const { kind, code } = classifyNetworkError(err);
  const h = hostOf(t.baseUrl);
  const tag = code === undefined ? '' : ` (${code})`;
  const texts: Record<NetworkKind, string> = {
    dns: `could not resolve the host "${h.replace(/:\d+$/, '')}"${tag}: check the host name in SITECHAT_BASE_URL, and DNS / network access from this machine.`,
    refused: `connection refused by ${h}${tag}: nothing listens there. Is the service running, and is the port in SITECHAT_BASE_URL right?`,
    tls: TLS_PLAIN.test(code ?? '')
      ? `TLS handshake with ${h} failed${tag}: the server does not speak TLS on this port. Use http://, or the HTTPS port.`
      : `TLS handshake with ${h} failed${tag}: the server's certificate is not trusted (self-signed, private CA, expired, or for another host name). Fix the certificate, or trust its CA with NODE_EXTRA_CA_CERTS.`,
    timeout: `no answer from ${h} within ${t.timeoutMs} ms${tag}: a firewall or proxy may drop the traffic, or the service is overloaded. Check that the host is reachable from here, or raise --timeout.`,
    reset: `the connection to ${h} was closed before an answer${tag}: a proxy or load balancer cut it, or http:// was used on a TLS port.`,
    unreachable: `the network to ${h} is unreachable${tag}: check routing, VPN or firewall.`,
    network: `could not reach ${h}${tag || ` (${err instanceof Error ? err.message : String(err)})`}: check SITECHAT_BASE_URL and the network.`,
  };
  return { outcome: kind, code, diagnosis: texts[kind] };
}

/** Turns whatever a check call threw into an outcome and a diagnosis in plain words. */
export function diagnose(err: unknown, target: CheckTarget): Diagnosis {
  if (err instanceof ConfigurationError) return { outcome: CheckOutcome.config, diagnosis: err.message };
  if (err instanceof APIConnectionError) return networkDiagnosis(err.cause ?? err, target);
  if (err instanceof SiteChatError && err.status !== undefined) return httpDiagnosis(err, target);
  if (err instanceof SiteChatError) return { outcome: CheckOutcome.config, diagnosis: err.message };
  return networkDiagnosis(err, target);
}
