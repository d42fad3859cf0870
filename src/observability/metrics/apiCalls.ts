import type { Endpoint } from '../../api/endpoints';
import { metrics, metricsEnabled } from './registry';

/**
 * One API exchange into the request counter, the 429 counter and the duration histogram. The path is the endpoint's
 * template (`/m2m/sites/{site_id}/chat/requests/{request_id}`): the filled-in path would make a series per request.
 */
export function apiCallMetrics(endpoint: Endpoint, siteId: unknown, status: number | undefined, durationMs: number): void {
  // Every API call passes here: with metrics off it costs one check.
  if (!metricsEnabled()) return;
  const m = metrics();
  const labels = { method: endpoint.method, path: endpoint.path, site: typeof siteId === 'string' ? siteId : '' };
  m.apiRequests.inc({ ...labels, status: status === undefined ? 'none' : String(status) });
  if (status === 429) m.apiRateLimited.inc(labels);
  m.apiRequestDuration.observe({ method: endpoint.method, path: endpoint.path }, durationMs / 1000);
}
