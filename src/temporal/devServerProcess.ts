import { spawn, type ChildProcess } from 'node:child_process';
import { ChildKind, childEnv } from './childEnv';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';

export interface DevServerProcessOptions {
  cliPath: string;
  dbFilename?: string;
  port?: number;
  /** Serve the Web UI on this port (127.0.0.1). @default no UI: it answers any Host header (docs/deployment.md) */
  uiPort?: number;
  /** The HTTP API's port (Host-checked). @default a free port */
  httpPort?: number;
  /** Serve Prometheus metrics here (the bench reads the server's own counters). @default a port the CLI picks */
  metricsPort?: number;
  namespaces: string[];
  dynamicConfig: string[];
  /** Where the server's own output goes; never this process's stdout, which `--json` keeps clean. */
  logFile?: string;
  /** @default 60000 */
  startTimeoutMs?: number;
}

export interface DevServerProcess {
  address: string;
  pid: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Asks a child to stop (SIGTERM by default) and kills it if it has not exited after `graceMs`. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * The dev server's HTTP API (always on, beside gRPC) answers only requests whose `Host` names the loopback address and
 * its port: a web page that rebinds its own name to 127.0.0.1 (DNS rebinding) sends `Host: evil.example:PORT` and
 * gets 403 instead of workflow histories. The server's own setting (`frontend.httpAllowedHosts`, exact names).
 */
export function httpApiArgs(httpPort: number): string[] {
  const hosts = ['127.0.0.1', 'localhost', '[::1]'].map((h) => `${h}:${httpPort}`);
  return ['--http-port', String(httpPort), '--dynamic-config-value', `frontend.httpAllowedHosts=${JSON.stringify(hosts)}`];
}

/**
 * `temporal server start-dev` as a child process with its output in a log file. Ready when the frontend
 * answers; the child is killed if this process exits first.
 */
export async function spawnDevServer(options: DevServerProcessOptions): Promise<DevServerProcess> {
  const port = options.port ?? (await freePort());
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn', ...httpApiArgs(options.httpPort ?? (await freePort()))];
  if (options.uiPort !== undefined) args.push('--ui-ip', '127.0.0.1', '--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.dbFilename) args.push('--db-filename', options.dbFilename);
  if (options.metricsPort !== undefined) args.push('--metrics-port', String(options.metricsPort));
  for (const ns of options.namespaces) args.push('--namespace', ns);
  for (const kv of options.dynamicConfig) args.push('--dynamic-config-value', kv);

  // Its own process group: Ctrl-C in the terminal goes to sitechat, which decides (cancel or detach) and then
  // stops the server itself; the server must not die with the keystroke.
  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: childEnv(ChildKind.temporalServer) });
  if (options.logFile) {
    mkdirSync(dirname(options.logFile), { recursive: true });
    const log = createWriteStream(options.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  } else {
    child.stdout?.resume();
    child.stderr?.resume();
  }
  const onExit = (): void => void child.kill('SIGKILL');
  process.once('exit', onExit);

  const address = `127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the Temporal dev server exited with code ${child.exitCode}${options.logFile ? `; see ${options.logFile}` : ''}`);
    }
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      await conn.workflowService.getSystemInfo({});
      await conn.close();
      break;
    } catch {
      if (Date.now() > deadline) {
        await stopChild(child);
        throw new Error(`the Temporal dev server did not answer on ${address} in time${options.logFile ? `; see ${options.logFile}` : ''}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    pid: child.pid as number,
    async stop() {
      process.off('exit', onExit);
      await stopChild(child);
    },
  };
}
