/**
 * A real PostgreSQL server for tests: Debian's binaries (installed with apt-get when missing and this process is
 * root), a cluster initialised in a temp directory, started on a free port with its socket in that directory, and
 * stopped and deleted after. PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user
 * (or `nobody`). Password authentication over TCP, so URLs carry a password as in production.
 */
import { execFile, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

export const TEST_PASSWORD = 'pw-s3cret-for-tests';
const SUPERUSER = 'postgres';

export interface PostgresServer {
  port: number;
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<database>` */
  url(database: string, password?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server as a crash would (`pg_ctl stop -m immediate`), keeping its data, for outage tests. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port and data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/u.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl'))) return join(root, v, 'bin');
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  return undefined;
}

function installWithApt(): string | undefined {
  if (process.getuid?.() !== 0) return 'initdb/pg_ctl not found and this process is not root, so the `postgresql` package cannot be installed';
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) return 'initdb/pg_ctl not found and apt-get is not available';
  const options: SpawnSyncOptions = { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 600_000 };
  // Test files start in parallel: apt waits for the other one's lock instead of failing.
  const lock = ['-o', 'DPkg::Lock::Timeout=600'];
  if (spawnSync('apt-get', ['-qq', ...lock, 'update'], options).status !== 0) return '`apt-get update` failed (no package registry reachable?)';
  const install = spawnSync('apt-get', ['-qq', ...lock, 'install', '-y', '--no-install-recommends', 'postgresql'], options);
  return install.status === 0 ? undefined : '`apt-get install postgresql` failed';
}

let found: { binDir?: string; reason?: string } | undefined;

/** Where initdb and pg_ctl are, installing them first when possible; else why not (printed once). */
export function postgresBinaries(): { binDir?: string; reason?: string } {
  if (found) return found;
  let binDir = findBinDir();
  let reason: string | undefined;
  if (!binDir) {
    reason = installWithApt();
    binDir = findBinDir();
    if (!binDir) reason ??= 'the `postgresql` package was installed but initdb/pg_ctl were not found';
    else reason = undefined;
  }
  if (reason) process.stderr.write(`\n[postgres] SKIPPING the PostgreSQL store tests: ${reason}\n`);
  found = { binDir, reason };
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The unprivileged account the server runs as when this process is root. */
function serverAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root, and neither a `postgres` nor a `nobody` account exists to run PostgreSQL as');
}

export interface PostgresOptions {
  /**
   * Keep PostgreSQL's durability settings (fsync, synchronous commit, full-page writes). Tests that crash the server
   * (`halt`) need them: without them a transaction the server acknowledged can be lost in the crash, which is the
   * test server's shortcut, not the runner's fault. @default false (faster)
   */
  durable?: boolean;
}

/** Initialises and starts a cluster in a fresh temp directory. */
export async function startPostgres(binDir: string, options: PostgresOptions = {}): Promise<PostgresServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sitechat-pg-'));
  const account = serverAccount();
  const as = account ? { uid: account.uid, gid: account.gid } : {};
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pwfile');
  await writeFile(pwfile, `${TEST_PASSWORD}\n`);
  if (account) {
    await chmod(dir, 0o700);
    await chown(dir, account.uid, account.gid);
    await chown(pwfile, account.uid, account.gid);
  }
  const port = await freePort();
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  const start = (): Promise<unknown> => run(join(binDir, 'pg_ctl'), [
    '-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60',
    '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'}`, 'start',
  ], { ...as, env, cwd: dir });
  const halt = (): Promise<unknown> => run(join(binDir, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...as, env, cwd: dir });
  try {
    await run(join(binDir, 'initdb'), ['-D', data, '-U', SUPERUSER, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-sync'], { ...as, env, cwd: dir });
    await start();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const url = (database: string, password = TEST_PASSWORD): string => `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async halt() {
      await halt();
    },
    async resume() {
      await start();
    },
    async stop() {
      await halt().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
