import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { startLocalServer, type LocalServer } from '../../../temporal/localServer';
import { ExitCode } from '../../follow/follow';
import { createLogger } from '../../logger';
import { parsePositiveInt } from '../run/runOptions';
import { UsageError } from '../../usageError';

/** Flags of `sitechat server`, as commander hands them over (validated by the action). */
export interface ServerFlags {
  port: string;
  /** Start the Temporal Web UI. @default false: it answers any Host header (docs/deployment.md) */
  ui?: boolean;
  /** @default '8233' (with --ui) */
  uiPort?: string;
  /** No Web UI: the default; kept for scripts written before --ui. */
  headless?: boolean;
  dbFilename: string;
  logFile: string;
  namespace: string;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** The Temporal CLI's own default: the gRPC port's default plus 1000. */
const DEFAULT_UI_PORT = '8233';

function port(raw: string, flag: string): number {
  const n = parsePositiveInt(raw, flag);
  if (n > 65_535) throw new UsageError(`${flag} must be a TCP port from 1 to 65535, got ${JSON.stringify(raw)}`);
  return n;
}

/** Whether something listens on 127.0.0.1:`port` already: the dev server would fail, and its readiness check would find the other one. */
function portTaken(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(false)));
  });
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `sitechat server`: the dev server `run` embeds, but on a fixed port with its state in a file, for workers and runs
 * in other processes (a one-machine cluster). The export line goes to stdout; everything else to stderr. Stops the
 * server and exits 0 on Ctrl-C, SIGTERM or SIGHUP. The Web UI only with --ui: the Temporal CLI offers no way to make
 * it check the Host header, so any web page could reach it by DNS rebinding.
 */
export async function serverAction(flags: ServerFlags): Promise<number> {
  const log = createLogger();
  let grpcPort: number;
  let uiPort: number | undefined;
  try {
    grpcPort = port(flags.port, '--port');
    if (flags.ui && flags.headless) throw new UsageError('--ui and --headless contradict each other: pick one (no Web UI is the default)');
    if (!flags.ui && flags.uiPort !== undefined) throw new UsageError('--ui-port needs --ui: the Web UI is off by default');
    uiPort = flags.ui ? port(flags.uiPort ?? DEFAULT_UI_PORT, '--ui-port') : undefined;
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err));
    return ExitCode.usage;
  }
  const dbFilename = resolve(flags.dbFilename);
  const logFile = resolve(flags.logFile);
  const taken = [grpcPort, uiPort].filter((p): p is number => p !== undefined);
  for (const p of taken) {
    if (await portTaken(p)) {
      log.error(`port ${p} is taken (another Temporal server?): pick a free one with ${p === grpcPort ? '--port' : '--ui-port'}, or stop the other server`);
      return ExitCode.runFailed;
    }
  }
  let server: LocalServer;
  try {
    mkdirSync(dirname(dbFilename), { recursive: true });
    server = await startLocalServer({ port: grpcPort, uiPort, dbFilename, logFile, namespace: flags.namespace, log: (l) => log.info(l) });
  } catch (err) {
    log.error(`${err instanceof Error ? err.message : String(err)}. Is port ${grpcPort}${uiPort ? ` or ${uiPort}` : ''} taken (another server)? ` +
      'Pick others with --port / --ui-port, or stop the other one.');
    return ExitCode.runFailed;
  }
  log.info(`Temporal dev server on ${server.address} with sitechat's settings (one partition per task queue, per-site fairness); namespace ${flags.namespace}`);
  log.info(`state in ${dbFilename}, log in ${logFile}${uiPort ? `; Web UI at http://127.0.0.1:${uiPort}` : ''}`);
  if (uiPort) {
    log.warn('the Web UI answers any Host header: while it runs, a web page you open could read workflow histories through DNS rebinding; start it only while you use it (docs/deployment.md)');
  }
  log.info('in the shells of your workers and runs:');
  log.out(`export TEMPORAL_ADDRESS=${server.address}${flags.namespace === 'default' ? '' : ` TEMPORAL_NAMESPACE=${flags.namespace}`}`);
  log.info('Ctrl-C stops the server (its state stays in the file)');
  // Until a signal, or until the server process goes by itself (the check also keeps this process running).
  let watch: NodeJS.Timeout | undefined;
  const signal = await new Promise<NodeJS.Signals | 'exited'>((done) => {
    for (const s of STOP_SIGNALS) process.once(s, done);
    watch = setInterval(() => alive(server.pid) || done('exited'), 1000);
  });
  clearInterval(watch);
  if (signal === 'exited') {
    log.error(`the Temporal dev server exited by itself; see ${logFile}`);
    return ExitCode.runFailed;
  }
  log.info(`${signal}: stopping the Temporal dev server`);
  await server.stop();
  return ExitCode.ok;
}
