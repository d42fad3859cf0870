/**
 * No child process sitechat starts sees a secret of its environment: every secret-bearing variable (the `--notify`
 * variables, whose names the operator chooses, the API and judge keys, an OTLP collector's headers, cloud
 * credentials) is set to a canary value, then each child's /proc/<pid>/environ is read: the dev server of
 * `sitechat server` directly; the dev server of `sitechat run` and the Temporal CLI of `sitechat temporal` through a
 * stand-in CLI (TEMPORAL_CLI_PATH) that saves its own /proc/$$/environ, then execs the real one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateTemporalCli } from '../../src/temporal/cliLocator';
import { freePort } from '../../src/temporal/devServerProcess';
import { CLI, sitechat, until } from '../helpers/cli';
import { childrenOf, nulSeparated as environOf, recordingCli } from '../helpers/procfs';
import { Receiver } from '../helpers/receiver';

/** Variable → canary value; none of these values may appear in any child's environment. */
const CANARIES: Record<string, string> = {
  HOOK_URL: '', // the receiver's URL with the canary path, set in beforeAll
  HOOK_SECRET: 'canary-hook-secret-71c2',
  SITECHAT_SLACK_WEBHOOK: '',
  SITECHAT_API_KEY: 'canary-api-key-4be9',
  SITECHAT_JUDGE_API_KEY: 'canary-judge-key-0d13',
  OTEL_EXPORTER_OTLP_HEADERS: 'authorization=canary-otlp-token-9a7f',
  GOOGLE_APPLICATION_CREDENTIALS: '/canary/gcp-credentials-5e80.json',
  AWS_SECRET_ACCESS_KEY: 'canary-aws-secret-3f61',
};
const PATH_CANARY = 'canary-hook-path-c4d8';

function expectNoCanary(environ: string[], where: string): void {
  expect(environ.some((e) => e.startsWith('PATH=')), `${where}: PATH`).toBe(true);
  const text = environ.join('\n');
  for (const [name, value] of Object.entries(CANARIES)) {
    expect(text, `${where}: ${name}`).not.toContain(value);
    expect(environ.some((e) => e.startsWith(`${name}=`)), `${where}: ${name}`).toBe(false);
  }
  expect(text, where).not.toContain(PATH_CANARY);
}

describe('child processes get an allow-listed environment: no canary secret in /proc/<pid>/environ', () => {
  let dir: string;
  let realCli: string;
  const receiver = new Receiver(CANARIES.HOOK_SECRET);
  let env: Record<string, string>;
  const procs: ChildProcess[] = [];

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    if (process.platform !== 'linux') throw new Error('reads /proc/<pid>/environ: Linux only');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-child-env-'));
    const base = await receiver.start();
    CANARIES.HOOK_URL = `${base}/hook/${PATH_CANARY}`;
    CANARIES.SITECHAT_SLACK_WEBHOOK = `${base}/slack/${PATH_CANARY}`;
    // The judge key is taken only with the judge's other settings (the judge is not asked: no row needs it).
    env = { ...CANARIES, SITECHAT_JUDGE_BASE_URL: `${base}/judge/v1`, SITECHAT_JUDGE_MODEL: 'canary-free-model' };
    const located = await locateTemporalCli();
    if (!located.path) throw new Error('no Temporal CLI binary (globalSetup provisions one)');
    realCli = located.path;
  });
  afterAll(async () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sitechat server: its Temporal dev server', async () => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
    const server = spawn(process.execPath, [CLI, 'server', '--port', String(await freePort()), '--db-filename', join(dir, 'server.db'), '--log-file', join(dir, 'server.log')], {
      cwd: dir, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    procs.push(server);
    let stdout = '';
    server.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    server.stderr?.resume();
    await until('the export line', () => (/export TEMPORAL_ADDRESS=/u.test(stdout) ? true : undefined));
    const [devServer] = childrenOf(server.pid as number);
    expect(devServer, 'the dev server process').toBeDefined();
    expectNoCanary(environOf(`/proc/${devServer}/environ`), 'sitechat server → temporal server start-dev');
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  });

  it('sitechat run --notify: its embedded dev server', async () => {
    const cli = recordingCli(dir, 'run', realCli);
    const dataset = join(dir, 'q.csv');
    writeFileSync(dataset, 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\n');
    const ran = await sitechat(dir, ['run', dataset, '--out', join(dir, 'report'), '--notify', 'webhook:HOOK_URL:HOOK_SECRET', '--notify', 'slack:SITECHAT_SLACK_WEBHOOK', '--notify-on', 'always'], {
      ...env, TEMPORAL_CLI_PATH: cli.path,
    });
    expect(ran.code, ran.stderr).toBe(0);
    // The worker in the CLI's own process did read the variables: both destinations got the message.
    expect(receiver.received.map((r) => r.path.split('/')[1]).sort()).toEqual(['hook', 'slack']);
    const [saved = []] = cli.saved();
    expect(saved.join(' ')).not.toContain('TEMPORAL_CLI_PATH=');
    expectNoCanary(saved, 'sitechat run → temporal server start-dev');
  });

  it('sitechat temporal: the Temporal CLI, which keeps the TEMPORAL_* settings it needs', async () => {
    const cli = recordingCli(dir, 'temporal', realCli);
    const ran = await sitechat(dir, ['temporal', '--version'], { ...env, TEMPORAL_CLI_PATH: cli.path, TEMPORAL_ADDRESS: '127.0.0.1:7999', TEMPORAL_NAMESPACE: 'canary-ns' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/temporal version/u);
    const [saved = []] = cli.saved();
    expect(saved).toEqual(expect.arrayContaining(['TEMPORAL_ADDRESS=127.0.0.1:7999', 'TEMPORAL_NAMESPACE=canary-ns']));
    expectNoCanary(saved, 'sitechat temporal');
  });
});
