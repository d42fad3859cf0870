import { TestWorkflowEnvironment } from '@temporalio/testing';
import { locateTemporalCli, type LocatedCli } from './cliLocator';
import { freePort, httpApiArgs, spawnDevServer } from './devServerProcess';
import { installQuietRuntime } from './sdkRuntime';

export interface LocalServerOptions {
  /** Persist state in this SQLite file (so `sitechat watch` works after a restart). @default in-memory */
  dbFilename?: string;
  /** gRPC port. @default a free port */
  port?: number;
  /** Serve the Web UI on this port. @default no UI: it answers any Host header (docs/deployment.md) */
  uiPort?: number;
  /** @default "default" */
  namespace?: string;
  /** More namespaces to create at startup (tests give each file its own). */
  extraNamespaces?: string[];
  /** The server's own output. @default discarded */
  logFile?: string;
  log?: (line: string) => void;
}

export interface LocalServer {
  /** host:port of the frontend gRPC service. */
  address: string;
  /** The server process, when it is ours. */
  pid?: number;
  cli: LocatedCli;
  stop(): Promise<void>;
}

/**
 * Dynamic config for the embedded server. One partition per task queue makes the task-queue rate limit exact:
 * with the default 4 partitions the server splits the limit across them, each with a 1 s burst, so short bursts
 * above the API's 5 requests/second happen (see DESIGN.md, "Rate limits").
 */
export const DEV_SERVER_DYNAMIC_CONFIG = [
  'matching.numTaskqueueReadPartitions=1',
  'matching.numTaskqueueWritePartitions=1',
  // Per-site budgets: each site is a fairness key of the rate-limited queues, with a rate limit of its own.
  'matching.enableFairness=true',
  'matching.useNewMatcher=true',
];

/**
 * Starts a Temporal dev server from the CLI found (or provisioned) by {@link locateTemporalCli}, as a child
 * process of ours. Only when no CLI can be had does it fall back to @temporalio/testing, whose SDK download
 * needs internet access.
 */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const log = options.log ?? (() => undefined);
  installQuietRuntime();
  const cli = await locateTemporalCli({ log });
  const namespaces = [options.namespace ?? 'default', ...(options.extraNamespaces ?? [])];
  if (cli.path) {
    log(`Temporal CLI via ${cli.route}: ${cli.path}`);
    const server = await spawnDevServer({
      cliPath: cli.path, dbFilename: options.dbFilename, port: options.port, uiPort: options.uiPort,
      namespaces, dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG, logFile: options.logFile,
    });
    log(`Temporal dev server listening on ${server.address}`);
    return { address: server.address, pid: server.pid, cli, stop: () => server.stop() };
  }
  for (const note of cli.notes) log(`  (${note})`);
  log('no Temporal CLI could be found or installed: letting the SDK download it (needs internet access)');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download' },
      ip: '127.0.0.1',
      port: options.port,
      uiPort: options.uiPort,
      ui: options.uiPort !== undefined,
      dbFilename: options.dbFilename,
      namespace: options.namespace,
      log: { format: 'pretty', level: 'error' },
      extraArgs: [
        ...httpApiArgs(await freePort()),
        ...DEV_SERVER_DYNAMIC_CONFIG.flatMap((kv) => ['--dynamic-config-value', kv]),
        ...(options.extraNamespaces ?? []).flatMap((ns) => ['--namespace', ns]),
      ],
    },
  });
  return { address: env.connection.options.address, cli, stop: () => env.teardown() };
}
