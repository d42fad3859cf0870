/** Classifies failures that never got an HTTP response, by the system / undici / TLS error codes in the cause chain. */

/** What kind of network failure. */
export const NetworkKind = {
  dns: 'dns',
  refused: 'refused',
  tls: 'tls',
  timeout: 'timeout',
  reset: 'reset',
  unreachable: 'unreachable',
  network: 'network',
} as const;
export type NetworkKind = (typeof NetworkKind)[keyof typeof NetworkKind];

const BY_CODE: Readonly<Record<string, NetworkKind>> = {
  ENOTFOUND: NetworkKind.dns,
  EAI_AGAIN: NetworkKind.dns,
  EAI_FAIL: NetworkKind.dns,
  EAI_NONAME: NetworkKind.dns,
  EAI_NODATA: NetworkKind.dns,
  ECONNREFUSED: NetworkKind.refused,
  ETIMEDOUT: NetworkKind.timeout,
  UND_ERR_CONNECT_TIMEOUT: NetworkKind.timeout,
  UND_ERR_HEADERS_TIMEOUT: NetworkKind.timeout,
  UND_ERR_BODY_TIMEOUT: NetworkKind.timeout,
  ECONNRESET: NetworkKind.reset,
  EPIPE: NetworkKind.reset,
  UND_ERR_SOCKET: NetworkKind.reset,
  UND_ERR_CLOSED: NetworkKind.reset,
  EHOSTUNREACH: NetworkKind.unreachable,
  ENETUNREACH: NetworkKind.unreachable,
  EADDRNOTAVAIL: NetworkKind.unreachable,
  EPROTO: NetworkKind.tls,
  DEPTH_ZERO_SELF_SIGNED_CERT: NetworkKind.tls,
  SELF_SIGNED_CERT_IN_CHAIN: NetworkKind.tls,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: NetworkKind.tls,
  UNABLE_TO_GET_ISSUER_CERT: NetworkKind.tls,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: NetworkKind.tls,
  CERT_HAS_EXPIRED: NetworkKind.tls,
  CERT_NOT_YET_VALID: NetworkKind.tls,
  CERT_UNTRUSTED: NetworkKind.tls,
  CERT_REVOKED: NetworkKind.tls,
  HOSTNAME_MISMATCH: NetworkKind.tls,
  ERR_TLS_CERT_ALTNAME_INVALID: NetworkKind.tls,
};

/** TLS codes follow these shapes too (OpenSSL reason codes, Node's ERR_TLS_* / ERR_SSL_*). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|ERR_OSSL_)/;

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('code' in value)) return undefined;
  return typeof value.code === 'string' ? value.code : undefined;
}

/** Every error in the chain: `cause`s and the members of an AggregateError (Node tries each address of a host). */
function chain(err: unknown, depth = 0): unknown[] {
  if (depth > 6 || typeof err !== 'object' || err === null) return [];
  const nested: unknown[] = [];
  if ('cause' in err) nested.push(...chain(err.cause, depth + 1));
  if (err instanceof AggregateError) for (const e of err.errors) nested.push(...chain(e, depth + 1));
  return [err, ...nested];
}

/** The most specific code in the chain and its kind; a timeout error class counts as a timeout without a code. */
export function classifyNetworkError(err: unknown): { kind: NetworkKind; code?: string } {
  const codes = chain(err).map(codeOf).filter((c): c is string => c !== undefined);
  for (const code of codes) {
    const kind = BY_CODE[code] ?? (TLS_CODE.test(code) ? NetworkKind.tls : undefined);
    if (kind !== undefined) return { kind, code };
  }
  const timedOut = chain(err).some((e) => e instanceof Error && /timeout/i.test(e.name));
  return { kind: timedOut ? NetworkKind.timeout : NetworkKind.network, code: codes[0] };
}
