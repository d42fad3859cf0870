/**
 * The labels of a pacer key (`POST /m2m/sites/site-a/chat/async`, `GET /m2m/sites/site-a/chat/requests/*`): the method,
 * the path as the API client's endpoint template names it, and the site. Memoized: a worker has a few keys per site.
 */
const cache = new Map<string, { method: string; path: string; site: string }>();

export function pacerKeyLabels(key: string): { method: string; path: string; site: string } {
  let labels = cache.get(key);
  if (labels === undefined) {
    const space = key.indexOf(' ');
    const path = key.slice(space + 1)
      .replace(/^\/m2m\/sites\/[^/]+/u, '/m2m/sites/{site_id}')
      .replace(/^\/m2m\/tenants\/[^/]+/u, '/m2m/tenants/{tenant_id}')
      .replace(/\/chat\/requests\/[^/]+$/u, '/chat/requests/{request_id}');
    labels = { method: key.slice(0, Math.max(space, 0)), path, site: siteOf(key) };
    cache.set(key, labels);
  }
  return labels;
}

/** As `siteOfKey` of the pacer (not imported from there: the pacer imports this module). */
function siteOf(key: string): string {
  const match = /\/m2m\/sites\/([^/]+)\//u.exec(key);
  return match ? decodeURIComponent(match[1] as string) : '';
}
