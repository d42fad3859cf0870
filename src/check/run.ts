import { performance } from 'node:perf_hooks';
import type { SiteChatClient } from '../api';
import { CheckOutcome, diagnose, type CheckTarget, type Diagnosis } from './diagnose';

/** One check's result, as printed and as `--json` emits it. */
export interface CheckResult extends Diagnosis {
  name: 'tenant' | 'site' | 'config';
  /** Method and path template called. */
  endpoint?: string;
  /** Tenant or site id checked. */
  target?: string;
  durationMs?: number;
}

export interface CheckReport {
  /** True when every check that ran is ok and at least one ran. */
  ok: boolean;
  baseUrl: string;
  /** The embedded simulator was checked (no SITECHAT_BASE_URL). */
  simulator: boolean;
  checks: CheckResult[];
}

export interface RunChecksOptions {
  client: SiteChatClient;
  baseUrl: string;
  /** Sites to reach, one site check each (`--site a,b,c`). */
  siteIds?: string[];
  tenantId?: string;
  /** Used in timeout diagnoses. */
  timeoutMs: number;
  simulator?: boolean;
}

const TENANT_ENDPOINT = 'GET /m2m/tenants/{tenant_id}/limits';
const SITE_ENDPOINT = 'GET /m2m/sites/{site_id}/sessions';

async function probe(
  name: 'tenant' | 'site', endpoint: string, id: string, options: RunChecksOptions, call: () => Promise<string>,
): Promise<CheckResult> {
  const started = performance.now();
  const target: CheckTarget = { check: name, id, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs };
  try {
    const diagnosis = await call();
    return { name, endpoint, target: id, outcome: CheckOutcome.ok, status: 200, diagnosis, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    return { name, endpoint, target: id, ...diagnose(err, target), durationMs: Math.round(performance.now() - started) };
  }
}

function skipped(name: 'tenant' | 'site', endpoint: string, diagnosis: string): CheckResult {
  return { name, endpoint, outcome: CheckOutcome.skipped, diagnosis };
}

/**
 * The connectivity check: the tenant limits endpoint (key valid, tenant right, API reachable; spec §4.7) and one
 * cheap site-scoped read per site (a session list of one). Calls the client directly: no Temporal involved. Never throws.
 */
export async function runChecks(options: RunChecksOptions): Promise<CheckReport> {
  const { client, tenantId, siteIds = [] } = options;
  const checks: CheckResult[] = [];
  checks.push(tenantId === undefined
    ? skipped('tenant', TENANT_ENDPOINT, 'skipped: no tenant given (pass --tenant ID or set SITECHAT_TENANT_ID) — the key was not checked against its tenant')
    : await probe('tenant', TENANT_ENDPOINT, tenantId, options, async () => {
      const limits = await client.tenants.limits(tenantId);
      const fields = Object.keys(limits);
      return `the key is valid for tenant "${tenantId}" and the API is reachable${fields.length > 0 ? ` (limits: ${fields.slice(0, 6).join(', ')}${fields.length > 6 ? ', …' : ''})` : ''}`;
    }));
  if (siteIds.length === 0) checks.push(skipped('site', SITE_ENDPOINT, 'skipped: no site given (pass --site ID or set SITECHAT_SITE_ID)'));
  for (const siteId of siteIds) {
    checks.push(await probe('site', SITE_ENDPOINT, siteId, options, async () => {
      const { pagination } = await client.sessions.list(siteId, { limit: 1 });
      return `site "${siteId}" is reachable with this key (${pagination.total} session${pagination.total === 1 ? '' : 's'})`;
    }));
  }
  const ran = checks.filter((c) => c.outcome !== CheckOutcome.skipped);
  return { ok: ran.length > 0 && ran.every((c) => c.outcome === CheckOutcome.ok), baseUrl: options.baseUrl, simulator: options.simulator ?? false, checks };
}

/** A report for a configuration that did not even allow building a client (no key, bad base URL). */
export function configReport(baseUrl: string, diagnosis: string, simulator = false): CheckReport {
  return { ok: false, baseUrl, simulator, checks: [{ name: 'config', outcome: CheckOutcome.config, diagnosis }] };
}

/** Text lines of a report: one per check, ✓ / ✗ / – and the diagnosis. */
export function formatCheckReport(report: CheckReport): string[] {
  const lines = [`Site Chat API at ${report.baseUrl}${report.simulator ? ' (the embedded simulator: SITECHAT_BASE_URL is not set)' : ''}`];
  for (const c of report.checks) {
    const mark = c.outcome === CheckOutcome.ok ? '✓' : c.outcome === CheckOutcome.skipped ? '–' : '✗';
    const what = c.name === 'config' ? 'configuration' : `${c.name} check${c.endpoint ? ` (${c.endpoint})` : ''}`;
    lines.push(`${mark} ${what}: ${c.diagnosis}`);
  }
  lines.push(report.ok ? 'All good.' : 'Not all good: see above.');
  return lines;
}
