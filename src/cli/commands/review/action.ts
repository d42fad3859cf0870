import { userInfo } from 'node:os';
import { clientFor } from '../../../temporal/client';
import { ReviewRunError } from '../../../review/errors';
import { DEFAULT_LIMIT, DEFAULT_SAMPLE } from '../../../review/queue';
import { resolveReviewTarget } from '../../../review/runs';
import { startReviewServer } from '../../../review/server';
import { ReviewSession } from '../../../review/session';
import { newToken } from '../../../shared/serverGuard';
import { ExitCode } from '../../follow/follow';
import { createLogger, type Logger } from '../../logger';
import { runsDir, storeUrlProblem } from '../run/preflight';
import { checkRunRef } from '../../runRef';
import { openRuntime, STATE_DIR, type Runtime } from '../../runtime';
import { UsageError } from '../../usageError';
import { openCliStore } from '../../store/storeReports';
import { isStoreConnectFailure, storeFailureMessage } from '../../store/storeFailure';
import { isUsageError } from '../../usageErrors';
import { UsageProblems } from '../run/validate';

export interface ReviewFlags {
  host: string;
  port: string;
  sample?: string;
  seed?: string;
  limit?: string;
  by?: string;
  /** `--worker`: run an in-process worker. @default false */
  worker?: boolean;
  json?: boolean;
}

interface ReviewSettings {
  port: number;
  sample: number;
  limit: number;
}

function count(raw: string, flag: string, min: number): number {
  const n = Number(raw);
  if (!/^\d+$/u.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} must be a whole number ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

/** Every flag checked before anything starts; each problem named with its flag. */
function checkFlags(run: string, flags: ReviewFlags): { settings: ReviewSettings; problems: string[] } {
  const problems = new UsageProblems();
  if (run !== 'latest') problems.try('[run]', () => checkRunRef(run, '[run]'));
  const port = problems.try('--port', () => count(flags.port, '--port', 0));
  if (port !== undefined && port > 65535) problems.add('--port', `must be at most 65535, got ${port}`);
  const sample = flags.sample === undefined ? DEFAULT_SAMPLE : problems.try('--sample', () => count(flags.sample ?? '', '--sample', 0));
  const limit = flags.limit === undefined ? DEFAULT_LIMIT : problems.try('--limit', () => count(flags.limit ?? '', '--limit', 1));
  if (flags.host.trim() === '') problems.add('--host', 'must not be empty');
  const store = storeUrlProblem();
  if (store) problems.lines.push(store);
  return { settings: { port: port ?? 0, sample: sample ?? DEFAULT_SAMPLE, limit: limit ?? DEFAULT_LIMIT }, problems: problems.lines };
}

function defaultBy(): string | undefined {
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/** Resolves when the process is asked to stop (Ctrl-C, SIGTERM). */
function untilStopped(log: Logger): Promise<void> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      log.info(`${signal}: stopping the review server`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** `sitechat review`: serve the review page of a run until stopped. */
export async function reviewAction(run: string, flags: ReviewFlags): Promise<number> {
  const log = createLogger({ quiet: false });
  let runtime: Runtime | undefined;
  let opened;
  try {
    const { settings, problems } = checkFlags(run, flags);
    if (problems.length > 0) {
      for (const line of problems) log.error(line);
      log.error(`${problems.length} problem(s); nothing was started. Fix them and run again.`);
      return ExitCode.usage;
    }
    opened = openCliStore();
    const { store } = opened;
    const target = await resolveReviewTarget(store, run);
    const worker = flags.worker === true;
    if (worker && !process.env.SITECHAT_BASE_URL) {
      log.warn('no SITECHAT_BASE_URL: feedback of settled rows goes to a new embedded simulator, which does not know the run\'s requests (it refuses them; the rows record the refusal)');
    }
    runtime = await openRuntime({ log, worker, embeddedSimulator: worker });
    if (!worker && runtime.localServer) {
      log.warn(`no worker: this command started the embedded Temporal server (${STATE_DIR}/) itself, so none polls it; the feedback of the rows you settle waits until one does (\`--worker\`, asking SITECHAT_BASE_URL)`);
    } else if (!worker) {
      log.info('no in-process worker: the feedback of settled rows goes out on the `npx sitechat worker` processes of this Temporal server (--worker adds one here)');
    }
    const client = clientFor(runtime.temporal);
    const session = new ReviewSession({ store, client, runsDir: runsDir(), by: flags.by ?? defaultBy() }, target, { sample: settings.sample, seed: flags.seed, limit: settings.limit });
    const resumed = await session.open();
    if (resumed.applied > 0) log.info(`finished ${resumed.applied} save(s) an earlier review left undone`);
    const state = session.snapshot();
    const server = await startReviewServer({ host: flags.host, port: settings.port, token: newToken(), session, onError: (err) => log.error(`save failed: ${err instanceof Error ? err.message : String(err)}`) });
    const sites = target.multiSite ? ` (${target.runs.length} sites: ${target.runs.map((r) => r.siteId).join(', ')})` : '';
    log.info(`reviewing run ${target.runId}${sites}: ${state.items.length} rows in the queue, ${state.items.filter((i) => i.label).length} settled; results in ${opened.location}`);
    log.info('open the URL below (it holds the page\'s token); Ctrl-C stops the server');
    log.out(flags.json ? JSON.stringify({ url: server.url, runId: target.runId }) : server.url);
    await untilStopped(log);
    await server.close();
    return ExitCode.ok;
  } catch (err) {
    if (isStoreConnectFailure(err)) {
      log.error(storeFailureMessage(err));
      return ExitCode.runFailed;
    }
    log.error(err instanceof Error ? err.message : String(err));
    if (err instanceof ReviewRunError) return ExitCode.usage;
    return isUsageError(err) ? ExitCode.usage : ExitCode.runFailed;
  } finally {
    await runtime?.close();
    await opened?.close();
  }
}
