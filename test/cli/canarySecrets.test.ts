/**
 * The canary test (issue 34): every secret-bearing variable holds a canary, then, as real processes, a run with its own
 * worker and dev server that notifies a receiver echoing its path, `sitechat server` on that state, a worker, a review
 * save through the review API, the codec server, `check` and `notify test`. Then every file they wrote, every history
 * (through `sitechat temporal`, with and without the payload keys), the PostgreSQL store's dump, every output, the
 * spans and messages they sent, and the environment of every child process are searched for each canary, in each
 * form a leak would take (test/helpers/canaries.ts): none is found.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { Connection } from '@temporalio/client';
import { Client } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodedText } from '../../scripts/histories/collect';
import { dataConverterFor } from '../../src/codec/dataConverter';
import { EncryptionCodec } from '../../src/codec/encryption';
import { parsePayloadKeys, type PayloadKeys } from '../../src/codec/keys';
import { payloadsToJson } from '../../src/codec/payloadJson';
import type { ReviewState } from '../../src/review/types';
import { DEMO, loadFixtures, startSimulator, type SimulatorHandle } from '../../src/sim';
import { locateTemporalCli } from '../../src/temporal/cliLocator';
import { createTemporalClient } from '../../src/temporal/client';
import { freePort } from '../../src/temporal/devServerProcess';
import { labelFeedbackWorkflowId } from '../../workflows/labelFeedbackTypes';
import type { RunSummary } from '../../src/domain/results';
import { canariesIn, canaryMark, type Canary } from '../helpers/canaries';
import { CLI, sitechat, startSitechat, until, type Ran, type Started } from '../helpers/cli';
import { OtlpCollector } from '../helpers/otlpCollector';
import { postgresBinaries } from '../helpers/postgres';
import { postJson } from '../helpers/postJson';
import { descendantsOf, nulSeparated, parentOf, recordingCli, type RecordingCli } from '../helpers/procfs';
import { expressNotFound, Receiver } from '../helpers/receiver';
import { GRADED_HEADER, GRADED_ROWS } from '../helpers/uncertainRows';
import { describeWithPostgres } from '../helpers/usePostgres';

const run = promisify(execFile);

const MARK = {
  apiKey: canaryMark('canary-api-key'),
  judgeKey: canaryMark('canary-judge-key'),
  // Characters URL-encoding changes: the store URL carries it percent-encoded.
  storePassword: `canary/pg:p@ss+${canaryMark('w')}`,
  hookPath: canaryMark('canary-hook-path'),
  hookSecret: canaryMark('canary-hook-secret'),
  slackPath: canaryMark('canary-slack-path'),
  otlpToken: canaryMark('canary-otlp-token'),
  codecToken: canaryMark('canary-codec-token'),
  simAdminToken: canaryMark('canary-sim-admin'),
  foreign: canaryMark('canary-aws-secret'),
};
const PAYLOAD_KEY = randomBytes(32);

/**
 * Every variable of src that carries a secret (from a grep of `process.env`/`env[…]` reads), with why. Left out, and
 * why: TEMPORAL_API_KEY and TEMPORAL_TLS_* (they turn TLS on, which the local dev server does not speak; they are the
 * Temporal CLI's own settings, passed to it by design); TEMPORAL_CODEC_AUTH (the Temporal CLI's own, made per call
 * by `sitechat temporal`); the review page's token (made per start, printed for the person who started it); the
 * addresses (SITECHAT_BASE_URL, SITECHAT_JUDGE_BASE_URL, OTEL endpoints, SITECHAT_REPORT_BASE_URL), which are printed
 * on purpose, never with a query (test/unit/api/shownUrl.test.ts).
 */
const CANARIES: Canary[] = [
  { variable: 'SITECHAT_API_KEY', mark: MARK.apiKey, why: 'the tenant\'s M2M key: the simulator\'s fixtures give it to the demo tenant, and no other key' },
  { variable: 'SITECHAT_JUDGE_API_KEY', mark: MARK.judgeKey, why: 'the judge provider\'s key, sent to the simulator\'s judge route' },
  { variable: 'SITECHAT_STORE_URL', mark: MARK.storePassword, why: 'holds the password of the store\'s PostgreSQL role' },
  { variable: 'SITECHAT_DB_PASSWORD', mark: MARK.storePassword, why: 'the same password, as the compose file passes it' },
  { variable: 'HOOK_URL', mark: MARK.hookPath, why: 'a webhook URL (a name the operator chose): its path is the secret' },
  { variable: 'HOOK_SECRET', mark: MARK.hookSecret, why: 'the webhook\'s signing secret' },
  { variable: 'SITECHAT_SLACK_WEBHOOK', mark: MARK.slackPath, why: 'a Slack webhook URL, whose path is the secret' },
  { variable: 'OTEL_EXPORTER_OTLP_HEADERS', mark: MARK.otlpToken, why: 'the collector\'s token' },
  { variable: 'SITECHAT_PAYLOAD_KEYS', mark: PAYLOAD_KEY, why: 'the AES key of the payload codec (its id travels in payloads by design)' },
  { variable: 'SITECHAT_CODEC_TOKEN', mark: MARK.codecToken, why: 'the codec server\'s token: whoever holds it decodes every payload' },
  { variable: 'SITECHAT_SIM_ADMIN_TOKEN', mark: MARK.simAdminToken, why: 'the simulator\'s admin token (read by `sitechat sim` only)' },
  { variable: 'AWS_SECRET_ACCESS_KEY', mark: MARK.foreign, why: 'a secret of the operator\'s shell that sitechat never reads' },
];
const SECRET_VARIABLES = new Set(CANARIES.map((c) => c.variable));

const NOTIFY = ['--notify', 'webhook:HOOK_URL:HOOK_SECRET', '--notify', 'slack:SITECHAT_SLACK_WEBHOOK', '--notify-on', 'always'];
const DATASET = [GRADED_HEADER, ...Object.values(GRADED_ROWS)].join('\n') + '\n';
/** A question of the dataset: in the decoded histories, never in the encrypted ones (the searches can find things). */
const QUESTION = 'How much storage do I get for free?';

/** Every file below `dir`. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

/** What a child process was started with. */
interface ChildSeen { pid: number; ppid: number; parent: string; cmdline: string[]; environ: string[] }

describeWithPostgres('no canary secret in any file, history, dump, output or child environment (real processes)', (pg) => {
  let dir: string;
  /** The working directory of every sitechat process; HOME and TMPDIR are beside it: everything they write is below `dir`. */
  let work: string;
  let probe: string;
  let sim: SimulatorHandle;
  let cli: RecordingCli;
  let env: Record<string, string>;
  let storeUrl: string;
  const receiver = new Receiver(MARK.hookSecret);
  const collector = new OtlpCollector();
  const started: { name: string; p: Started }[] = [];
  const ran: { name: string; r: Ran }[] = [];
  const children = new Map<number, ChildSeen>();
  let watching: NodeJS.Timeout | undefined;
  let server: Started | undefined;
  let address = '';
  let runId = '';
  const histories: { name: string; text: string }[] = [];
  let dump = '';

  function start(name: string, args: string[], extra: Record<string, string> = {}): Started {
    const p = startSitechat(work, args, { ...env, ...extra });
    started.push({ name, p });
    return p;
  }

  async function once(name: string, args: string[], extra: Record<string, string> = {}, without: string[] = []): Promise<Ran> {
    const e = Object.fromEntries(Object.entries({ ...env, ...extra }).filter(([k]) => !without.includes(k)));
    const r = await sitechat(work, args, e);
    ran.push({ name, r });
    return r;
  }

  async function stop(p: Started): Promise<number | null> {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    return p.exit;
  }

  const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

  /** Notes each new process below a running sitechat process, with its environment as /proc shows it. */
  function watchChildren(): void {
    for (const { name, p } of started) {
      if (p.child.exitCode !== null || p.child.pid === undefined) continue;
      for (const [pid, ppid] of descendantsOf(p.child.pid).map((d) => [d, parentOf(d)] as const)) {
        try {
          // Between fork and exec a child is still a copy of its parent: the parent's command line and environment.
          // It is noted once it has become itself (its own command line), and read again when it execs once more
          // (the stand-in CLI execs the real one): the latest image says what it was given.
          const cmdline = nulSeparated(`/proc/${pid}/cmdline`);
          const known = children.get(pid);
          if (known ? sameList(known.cmdline, cmdline) : sameList(cmdline, nulSeparated(`/proc/${ppid}/cmdline`))) continue;
          children.set(pid, { pid, ppid, parent: name, cmdline, environ: nulSeparated(`/proc/${pid}/environ`) });
        } catch {
          // gone meanwhile; the stand-in CLI saved its environment if it was a Temporal CLI
        }
      }
    }
  }

  /**
   * The dev servers started by `parent` itself or a process below it, as the stand-in CLI recorded each start (its
   * parent's pid), not as sampling saw them: a start on a busy machine may come and go between two looks.
   */
  function devServersOf(parent: string): { ppid: number; args: string[] }[] {
    const own = new Set([
      ...started.filter((s) => s.name === parent).map((s) => s.p.child.pid),
      ...[...children.values()].filter((c) => c.parent === parent).map((c) => c.pid),
    ]);
    return cli.starts().filter((s) => s.args.includes('start-dev') && own.has(s.ppid));
  }

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    if (process.platform !== 'linux') throw new Error('reads /proc/<pid>/environ: Linux only');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-canary-'));
    work = join(dir, 'work');
    probe = join(dir, 'probe');
    for (const d of [work, probe, join(dir, 'home'), join(dir, 'tmp')]) mkdirSync(d);
    writeFileSync(join(work, 'questions.csv'), DATASET);

    // The demo tenant holds the canary key and no other: a run that works used it.
    const fixtures = loadFixtures();
    const demo = fixtures.tenants.find((t) => t.id === DEMO.tenantId);
    if (!demo) throw new Error('no demo tenant in the default fixtures');
    demo.keys = [{ key: MARK.apiKey }];
    // Every judge call fails (one attempt each): the uncertain rows stay uncertain for the review, and get its feedback.
    sim = await startSimulator({ port: 0, latencyScale: 0.02, fixtures, faults: { 'judge.chat': { failRate: 1 } } });

    const base = await receiver.start();
    // The webhook answers Express's 404 page, which quotes the secret path; Slack takes the message.
    receiver.reply = (r) => (r.path.startsWith('/hook/') ? expressNotFound(r) : { status: 200 });
    await collector.start();

    const pgServer = pg.server();
    const admin = new Client({ connectionString: pgServer.url('postgres') });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE sitechat LOGIN PASSWORD '${MARK.storePassword}'`);
      await admin.query('CREATE DATABASE canary OWNER sitechat');
    } finally {
      await admin.end();
    }
    storeUrl = `postgres://sitechat:${encodeURIComponent(MARK.storePassword)}@127.0.0.1:${pgServer.port}/canary`;

    const located = await locateTemporalCli();
    if (!located.path) throw new Error('no Temporal CLI binary (globalSetup provisions one)');
    cli = recordingCli(probe, 'cli', located.path);

    env = {
      HOME: join(dir, 'home'), TMPDIR: join(dir, 'tmp'), TEMPORAL_CLI_PATH: cli.path, SITECHAT_DEBUG: '1',
      SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_EMAIL: 'canary.user@example.com', SITECHAT_API_KEY: MARK.apiKey,
      SITECHAT_JUDGE_BASE_URL: sim.judgeBaseUrl, SITECHAT_JUDGE_MODEL: 'canary-judge-model', SITECHAT_JUDGE_API_KEY: MARK.judgeKey, SITECHAT_JUDGE_MAX_ATTEMPTS: '1',
      SITECHAT_STORE_URL: storeUrl, SITECHAT_DB_PASSWORD: MARK.storePassword,
      HOOK_URL: `${base}/hook/${MARK.hookPath}`, HOOK_SECRET: MARK.hookSecret, SITECHAT_SLACK_WEBHOOK: `${base}/services/T0/B0/${MARK.slackPath}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_HEADERS: `x-collector-token=${MARK.otlpToken}`,
      SITECHAT_PAYLOAD_KEYS: `canary-1:${PAYLOAD_KEY.toString('base64')}`, SITECHAT_CODEC_TOKEN: MARK.codecToken,
      SITECHAT_SIM_ADMIN_TOKEN: MARK.simAdminToken, AWS_SECRET_ACCESS_KEY: MARK.foreign,
    };
    watching = setInterval(watchChildren, 50);
  });

  afterAll(async () => {
    clearInterval(watching);
    for (const { p } of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await receiver.close();
    await collector.close();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the search finds each canary as it is, URL-encoded, and in base64 at any offset of an encoded text', () => {
    for (const canary of CANARIES) {
      const json = `{"note":"${typeof canary.mark === 'string' ? canary.mark : canary.mark.toString('base64')}"}`;
      const planted = [json, encodeURIComponent(json), ...[1, 2, 3].map((n) => Buffer.from(`${'x'.repeat(n)}${json}`).toString('base64'))];
      for (const text of planted) expect(canariesIn(text, CANARIES).filter((c) => c.startsWith(`${canary.variable} (`)), `${canary.variable} in ${text}`).not.toEqual([]);
    }
    // Key bytes as they are (a binary file) and in hex.
    expect(canariesIn(Buffer.concat([Buffer.from('SQLite format 3\0'), PAYLOAD_KEY]), CANARIES)).toContain('SITECHAT_PAYLOAD_KEYS (as it is)');
    expect(canariesIn(`key ${PAYLOAD_KEY.toString('hex').toUpperCase()}`, CANARIES)).toContain('SITECHAT_PAYLOAD_KEYS (hex)');
  });

  it('a run with its own worker and dev server: the receiver echoes the webhook\'s path in a 404, the judge and the collector are used', async () => {
    const p = start('run', ['run', 'questions.csv', '--json', '--out', 'report', ...NOTIFY]);
    const code = await p.exit;
    // Two of four rows stay uncertain (the judge fails): the gate fails on the uncertain rate.
    expect(code, p.stderr()).toBe(1);
    const summary = JSON.parse(p.stdout()) as RunSummary;
    expect(summary).toMatchObject({ total: 4, uncertain: 2 });
    runId = summary.runId;
    expect(p.stderr()).toMatch(/notification webhook \(HOOK_URL\): FAILED: HTTP 404 Not Found/u);
    expect(p.stderr()).toMatch(/notification slack \(SITECHAT_SLACK_WEBHOOK\): delivered/u);
    // Used, every one: the key (the run worked), the signing secret, both URLs, the judge key, the collector's token.
    const hook = receiver.received.find((r) => r.path === `/hook/${MARK.hookPath}`);
    expect(hook?.verified).toBe(true);
    expect(receiver.received.some((r) => r.path.endsWith(MARK.slackPath))).toBe(true);
    expect(Object.values(sim.stats().requests['judge.chat'] ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(collector.posts.some((post) => post.headers['x-collector-token'] === MARK.otlpToken)).toBe(true);
    // Its embedded dev server was a child of its own.
    expect(devServersOf('run')).toHaveLength(1);
  });

  it('sitechat server on the run\'s state, a worker, and a review save through the review API that sends feedback', async () => {
    server = start('server', ['server', '--port', String(await freePort()), '--db-filename', '.sitechat/temporal.db', '--log-file', '.sitechat/server.log']);
    address = await until('the export line', () => /export TEMPORAL_ADDRESS=(\S+)/u.exec(server?.stdout() ?? '')?.[1]);
    const worker = start('worker', ['worker'], { TEMPORAL_ADDRESS: address, SITECHAT_LOG_FORMAT: 'json' });
    await until('a polling worker', () => (worker.stderr().includes('worker polling') ? true : undefined));
    // A second run, on the worker process (its logs in JSON), which sends its notifications.
    const clustered = await once('run --no-worker', ['run', 'questions.csv', '--no-worker', '--json', '--out', 'report-cluster', ...NOTIFY], { TEMPORAL_ADDRESS: address });
    expect(clustered.code, clustered.stderr).toBe(1);
    expect(clustered.stderr).toMatch(/notification webhook \(HOOK_URL\): FAILED: HTTP 404 Not Found/u);
    expect(receiver.received.filter((r) => r.path === `/hook/${MARK.hookPath}`)).toHaveLength(2);

    const review = start('review', ['review', runId, '--no-worker', '--by', 'canary-tester'], { TEMPORAL_ADDRESS: address });
    const url = new URL(await until('the review URL', () => review.stdout().split('\n').find((l) => l.startsWith('http://'))));
    const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
    const state = (await (await fetch(`${url.origin}/api/state`, { headers: { 'X-Review-Token': token } })).json()) as ReviewState;
    const item = state.items.find((i) => i.reason === 'uncertain');
    expect(item).toBeDefined();
    const before = sim.stats().feedback;
    const saved = await fetch(`${url.origin}/api/labels`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Review-Token': token },
      body: JSON.stringify({ runId, rowId: item?.rowId, verdict: 'pass', note: 'the answer gives the free storage' }),
    });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { feedback: { state: string } }).feedback.state).toBe('started');
    // The worker sends it with the canary key, and records it.
    const connection = await Connection.connect({ address });
    try {
      const client = createTemporalClient(connection, { namespace: 'default', dataConverter: dataConverterFor(parsePayloadKeys(env.SITECHAT_PAYLOAD_KEYS)) });
      await client.workflow.getHandle(labelFeedbackWorkflowId(runId, item?.rowId ?? '')).result();
    } finally {
      await connection.close();
    }
    expect(sim.stats().feedback).toBe(before + 1);
    expect(await stop(review)).toBe(0);
    expect(await stop(worker)).toBe(0);
    // The server's dev server, a child of its own.
    expect(devServersOf('server')).toHaveLength(1);
  });

  it('the codec server decodes with the canary token; check and notify test use the key and the webhook', async () => {
    const codec = start('codec-server', ['codec-server', '--port', '0']);
    const endpoint = await until('the codec settings', () => /export TEMPORAL_CODEC_ENDPOINT=(\S+)/u.exec(codec.stdout())?.[1]);
    // The given token is named, not printed.
    await until('the Web UI line', () => (codec.stdout().split('\n').length > 2 ? true : undefined));
    expect(codec.stdout()).toContain('TEMPORAL_CODEC_AUTH="Bearer $SITECHAT_CODEC_TOKEN"');
    expect(codec.stdout()).toContain(`${endpoint}/$SITECHAT_CODEC_TOKEN`);
    const [sealed] = await new EncryptionCodec(parsePayloadKeys(env.SITECHAT_PAYLOAD_KEYS) as PayloadKeys).encode([defaultPayloadConverter.toPayload(QUESTION)]);
    const decoded = await postJson(`${endpoint}/decode`, payloadsToJson([sealed as Payload]), { Authorization: `Bearer ${MARK.codecToken}` });
    expect(decoded.status).toBe(200);
    expect(await stop(codec)).toBe(0);

    const check = await once('check', ['check']);
    expect(check.code, check.stderr).toBe(0);
    const notify = await once('notify test', ['notify', 'test', '--notify', 'webhook:HOOK_URL:HOOK_SECRET', '--notify', 'slack:SITECHAT_SLACK_WEBHOOK']);
    expect(notify.code).toBe(3);
    expect(notify.stderr).toContain('webhook (HOOK_URL): FAILED: HTTP 404 Not Found');
  });

  it('every history, through sitechat temporal: decoded with the keys, encrypted without', async () => {
    const list = await once('temporal workflow list', ['temporal', 'workflow', 'list', '--output', 'json'], { TEMPORAL_ADDRESS: address });
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout) as { execution: { workflowId: string; runId: string }; type: { name: string } }[];
    // The two runs (their notifications are their activities), their chunks, and the label's feedback.
    expect(listed.map((w) => w.type.name).sort()).toEqual(['evaluationRun', 'evaluationRun', 'labelFeedback', 'runChunk', 'runChunk']);
    const executions = listed.map((w) => w.execution);
    for (const keys of [true, false]) {
      for (const { workflowId, runId: id } of executions) {
        const name = `temporal workflow show ${workflowId} (${keys ? 'decoded' : 'encrypted'})`;
        const shown = await once(name, ['temporal', 'workflow', 'show', '--workflow-id', workflowId, '--run-id', id, '--output', 'json'], { TEMPORAL_ADDRESS: address }, keys ? [] : ['SITECHAT_PAYLOAD_KEYS']);
        expect(shown.code, shown.stderr).toBe(0);
        // Its output is searched with every other; its payloads are searched decoded from base64 here too.
        histories.push({ name, text: decodedText(JSON.parse(shown.stdout) as Parameters<typeof decodedText>[0]) });
      }
    }
    const all = (decoded: boolean): string => histories.filter((h) => h.name.endsWith(decoded ? '(decoded)' : '(encrypted)')).map((h) => h.text).join('\n');
    expect(all(true)).toContain(QUESTION);
    expect(all(false)).not.toContain(QUESTION);
    expect(await stop(server as Started)).toBe(0);
  });

  it('the store\'s dump', async () => {
    const { binDir } = postgresBinaries();
    dump = (await run(join(binDir as string, 'pg_dump'), ['--dbname', storeUrl], { maxBuffer: 256 * 1024 * 1024 })).stdout;
    // It holds the run: the searches below read its rows and notifications.
    expect(dump).toContain(runId);
    expect(dump).toContain(QUESTION);
    expect(dump).toContain('notification_deliveries');
  });

  it('finds no canary in any file the processes wrote (state, logs, reports, temp files, HOME)', () => {
    const files = filesUnder(dir).filter((f) => !f.startsWith(probe));
    expect(files.some((f) => f.endsWith('temporal.db'))).toBe(true);
    expect(files.some((f) => f.endsWith('report.md'))).toBe(true);
    const leaks = files.flatMap((f) => canariesIn(readFileSync(f), CANARIES).map((c) => `${f}: ${c}`));
    expect(leaks).toEqual([]);
  });

  it('finds no canary in any history, the dump, any process\'s output, the spans or the messages sent', () => {
    const texts = [
      ...histories,
      { name: 'pg_dump', text: dump },
      ...started.flatMap(({ name, p }) => [{ name: `${name} stdout`, text: p.stdout() }, { name: `${name} stderr`, text: p.stderr() }]),
      ...ran.flatMap(({ name, r }) => [{ name: `${name} stdout`, text: r.stdout }, { name: `${name} stderr`, text: r.stderr }]),
      ...collector.posts.map((post, i) => ({ name: `spans ${i}`, text: post.body })),
      ...receiver.received.map((r, i) => ({ name: `message ${i} to ${r.path.split('/')[1] ?? ''}`, text: r.body })),
    ];
    expect(texts.length).toBeGreaterThan(20);
    // The spans and the messages are read: they name the run (`notify test`'s samples name none).
    expect(collector.posts.some((post) => post.body.includes(runId))).toBe(true);
    expect(receiver.received.filter((r) => r.body.includes(runId))).toHaveLength(2);
    const leaks = texts.flatMap(({ name, text }) => canariesIn(text, CANARIES).map((c) => `${name}: ${c}`));
    expect(leaks).toEqual([]);
  });

  it('finds no canary, and no secret variable, in the environment of any child process', () => {
    const environs = [
      ...[...children.values()].map((c) => ({ name: `${c.parent} → ${c.cmdline.slice(0, 3).join(' ')} (pid ${c.pid})`, environ: c.environ })),
      ...cli.saved().map((environ, i) => ({ name: `Temporal CLI start ${i}`, environ })),
    ];
    // The run's and the server's dev servers, and one Temporal CLI per `sitechat temporal`.
    expect(cli.saved()).toHaveLength(2 + ran.filter((r) => r.name.startsWith('temporal ')).length);
    const problems = environs.flatMap(({ name, environ }) => [
      ...(environ.some((e) => e.startsWith('PATH=')) ? [] : [`${name}: no PATH (not read?)`]),
      ...environ.map((e) => e.slice(0, e.indexOf('='))).filter((v) => SECRET_VARIABLES.has(v)).map((v) => `${name}: ${v} is set`),
      ...canariesIn(environ.join('\n'), CANARIES).map((c) => `${name}: ${c}`),
    ]);
    expect(problems).toEqual([]);
  });
});
