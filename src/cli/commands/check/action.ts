import { SiteChatClient } from '../../../api';
import { ConfigurationError } from '../../../api/errors';
import { shownUrl } from '../../../api/shownUrl';
import { configReport, formatCheckReport, runChecks, type CheckReport } from '../../../check';
import { DurationError, parseDuration } from '../../../config/duration';
import { ExitCode } from '../../follow/follow';
import { createLogger, type Logger } from '../../logger';
import { isSiteList, parseSiteList } from '../run/siteList';
import { apiObserver } from '../../../observability/apiObserver';

export interface CheckFlags {
  site?: string;
  tenant?: string;
  timeout?: string;
  json?: boolean;
}

/** Injection points for tests: the environment read and the output channel. */
export interface CheckIo {
  env?: NodeJS.ProcessEnv;
  log?: Logger;
}

async function check(env: NodeJS.ProcessEnv, flags: CheckFlags, given: string[] | undefined, timeoutMs: number, log: Logger): Promise<CheckReport> {
  let baseUrl = env.SITECHAT_BASE_URL;
  let apiKey = env.SITECHAT_API_KEY;
  let siteIds = given;
  let tenantId = flags.tenant ?? env.SITECHAT_TENANT_ID;
  let sim: { baseUrl: string; close(): Promise<void> } | undefined;
  let client: SiteChatClient | undefined;
  try {
    if (!baseUrl) {
      const { startSimulator } = await import('../../../sim/index.js');
      const { DEMO } = await import('../../../sim/constants.js');
      sim = await startSimulator({ port: 0 });
      baseUrl = sim.baseUrl;
      apiKey = DEMO.apiKey;
      siteIds ??= [DEMO.siteId];
      tenantId ??= DEMO.tenantId;
      log.info(`no SITECHAT_BASE_URL: checking the embedded simulator at ${baseUrl} with its demo key`);
    }
    if (!apiKey) {
      return configReport(shownUrl(baseUrl), 'SITECHAT_API_KEY is not set: export the tenant API key (created in the dashboard) as SITECHAT_API_KEY');
    }
    try {
      client = new SiteChatClient({ baseUrl, apiKey, connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs, observer: apiObserver });
    } catch (err) {
      if (err instanceof ConfigurationError) return configReport(shownUrl(baseUrl), err.message);
      throw err;
    }
    return await runChecks({ client, baseUrl: client.baseUrl, siteIds, tenantId, timeoutMs, simulator: sim !== undefined });
  } finally {
    await client?.close();
    await sim?.close();
  }
}

/** `sitechat check`: exit 0 when every check that ran is ok, 3 otherwise, 2 for bad flags, settings or nothing to check. */
export async function checkAction(flags: CheckFlags, io: CheckIo = {}): Promise<number> {
  const log = io.log ?? createLogger();
  const env = io.env ?? process.env;
  let timeoutMs: number;
  try {
    timeoutMs = parseDuration(flags.timeout ?? '10s');
    if (timeoutMs <= 0) throw new DurationError('--timeout must be more than 0');
  } catch (err) {
    log.error(`--timeout: ${err instanceof Error ? err.message : String(err)}`);
    return ExitCode.usage;
  }
  // `--site a,b,c` (as `sitechat run` takes it) checks every site; a bad list is a usage error before any request.
  const sites = flags.site ?? env.SITECHAT_SITE_ID;
  let siteIds: string[] | undefined;
  try {
    siteIds = sites === undefined ? undefined : isSiteList(sites) ? parseSiteList(sites, flags.site === undefined ? 'SITECHAT_SITE_ID' : '--site') : [sites];
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    return ExitCode.usage;
  }
  const report = await check(env, flags, siteIds, timeoutMs, log);
  if (report.checks.every((c) => c.outcome === 'skipped')) {
    log.error('nothing to check: pass --site ID and/or --tenant ID (or set SITECHAT_SITE_ID / SITECHAT_TENANT_ID)');
    return ExitCode.usage;
  }
  if (flags.json) log.out(JSON.stringify(report, null, 2));
  else log.out(formatCheckReport(report).join('\n'));
  // A setting that names no usable API (no key, a base URL without /api/v1) is the user's to fix, as for every command.
  if (report.checks.some((c) => c.outcome === 'config')) return ExitCode.usage;
  return report.ok ? ExitCode.ok : ExitCode.runFailed;
}
