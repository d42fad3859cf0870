import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { EphemeralServerExecutable } from '@temporalio/testing/lib/ephemeral-server';
import { locateTemporalCli, type LocatedCli } from './cliLocator';
import { installQuietRuntime } from './sdkRuntime';

export interface LocalServerOptions {
  /** Persist state in this SQLite file (so `sitechat watch` works after a restart). @default in-memory */
  dbFilename?: string;
  /** gRPC port. @default a free port */
  port?: number;
  /** Serve the Web UI on this port. @default no UI */
  uiPort?: number;
  /** @default "default" */
  namespace?: string;
  /** More namespaces to create at startup (tests give each file its own). */
  extraNamespaces?: string[];
  log?: (line: string) => void;
}

export interface LocalServer {
  env: TestWorkflowEnvironment;
  /** host:port of the frontend gRPC service. */
  address: string;
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
];

/** Starts a Temporal dev server from the CLI found (or provisioned) by {@link locateTemporalCli}. */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const log = options.log ?? (() => undefined);
  installQuietRuntime();
  const cli = await locateTemporalCli({ log });
  const executable: EphemeralServerExecutable = cli.path
    ? { type: 'existing-path', path: cli.path }
    : { type: 'cached-download' };
  log(cli.path ? `Temporal CLI via ${cli.route}: ${cli.path}` : `Temporal CLI via ${cli.route} (needs internet)`);
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable,
      ip: '127.0.0.1',
      port: options.port,
      uiPort: options.uiPort,
      ui: options.uiPort !== undefined,
      dbFilename: options.dbFilename,
      namespace: options.namespace,
      log: { format: 'pretty', level: 'error' },
      extraArgs: [
        ...DEV_SERVER_DYNAMIC_CONFIG.flatMap((kv) => ['--dynamic-config-value', kv]),
        ...(options.extraNamespaces ?? []).flatMap((ns) => ['--namespace', ns]),
      ],
    },
  });
  const address = env.connection.options.address;
  log(`Temporal dev server listening on ${address}`);
  return { env, address, cli, stop: () => env.teardown() };
}
