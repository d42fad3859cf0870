import { RequestValidationError } from './errors';

/** One API operation: method and path template relative to the base URL (which ends in `/api/v1`). */
export interface Endpoint {
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/** Every endpoint of the spec (§4). Templates double as metric labels and error `endpoint` values. */
export const Endpoints = {
  listSessions: { method: 'GET', path: '/m2m/sites/{site_id}/sessions' },
  closeSession: { method: 'POST', path: '/m2m/sites/{site_id}/chat/session/close' },
  chatSync: { method: 'POST', path: '/m2m/sites/{site_id}/chat' },
  chatAsync: { method: 'POST', path: '/m2m/sites/{site_id}/chat/async' },
  // The spec names these placeholders `{id}` and `{requestId}`; we use the snake_case names of the
  // other endpoints so metric labels stay uniform. The resulting URL is the same.
  requestStatus: { method: 'GET', path: '/m2m/sites/{site_id}/chat/requests/{request_id}' },
  feedback: { method: 'POST', path: '/m2m/sites/{site_id}/chat/feedback' },
  tenantLimits: { method: 'GET', path: '/m2m/tenants/{tenant_id}/limits' },
} as const satisfies Record<string, Endpoint>;

/** `GET /m2m/sites/{site_id}/sessions` — the form used in messages and hooks. */
export function endpointLabel(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/** Substitutes `{name}` placeholders with URL-encoded values; empty, `.` or `..` values are rejected. */
export function fillPath(endpoint: Endpoint, params: Readonly<Record<string, unknown>>): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      const message = `path parameter \`${name}\` must be a non-empty string other than "." or ".."`;
      throw new RequestValidationError(`${endpointLabel(endpoint)}: ${message}`, {
        endpoint: endpointLabel(endpoint),
        issues: [{ path: name, message }],
      });
    }
    return encodeURIComponent(value);
  });
}

/** `?a=1&b=x` from the defined entries, or `''`. */
export function queryString(query: Readonly<Record<string, string | number | undefined>> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
