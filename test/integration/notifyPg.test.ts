/**
 * Notifications with the PostgreSQL store, a worker process and `run --no-worker`: the CLI renders the run's reports
 * from the store on its own host, and report.md there has the "Notifications" section (as does a multi-site run's
 * combined report). The receiver quotes the webhook's secret path back (a 500, then Express's 404 page): nothing of
 * it reaches the CLI's output, the database (pg_dump), the workflow history or the worker's JSON logs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { MultiSiteSummary } from '../../src/domain/multiSite';
import { outcomeLine, type NotifyOutcome } from '../../src/domain/notify';
import { MultiSiteReportFile } from '../../src/render/multiSiteRender';
import type { RunSummary } from '../../src/domain/results';
import { DEMO } from '../../src/sim/constants';
import { demoFixturesWithSites } from '../../src/sim/siteCopies';
import { sitechat } from '../helpers/cli';
import { historyText } from '../helpers/history';
import { postgresBinaries } from '../helpers/postgres';
import { notificationItems } from '../helpers/reportSections';
import { expressNotFound, Receiver } from '../helpers/receiver';
import { startStack, type Stack } from '../helpers/stack';
import { describeWithPostgres } from '../helpers/usePostgres';
import { exited, spawnWorker } from '../helpers/workerProcess';

const SECRET = 'pg-notify-signing-secret-62d0';
const TOKEN = 'pg-hook-path-token-e17b';
const SITES = [DEMO.siteId, 'demo-site-2'];
/** Things only the receiver's answers held. */
const ECHOED = [TOKEN, 'Cannot POST', 'POST /hook'];

describeWithPostgres('notifications on the PostgreSQL store: report sections from the store, no URL anywhere', (pg) => {
  let stack: Stack;
  let url: string;
  const receiver = new Receiver(SECRET);
  let workerLogs = '';
  let worker: ReturnType<typeof spawnWorker>;
  let cliHost: string;
  let env: Record<string, string>;
  let dataset: string;

  beforeAll(async () => {
    stack = await startStack(__filename, { latencyScale: 0.05, fixtures: demoFixturesWithSites(SITES) });
    url = await pg.freshDatabase();
    const base = await receiver.start();
    worker = spawnWorker(stack, {
      SITECHAT_RUNS_DIR: join(stack.runsDir, 'worker'), SITECHAT_STORE_URL: url, SITECHAT_LOG_FORMAT: 'json',
      HOOK_URL: `${base}/hook/${TOKEN}`, HOOK_SECRET: SECRET, SLACK_URL: `${base}/slack/${TOKEN}`,
    });
    worker.stderr?.on('data', (d: Buffer) => (workerLogs += d.toString()));
    cliHost = join(stack.runsDir, 'cli');
    mkdirSync(cliHost, { recursive: true });
    dataset = join(cliHost, 'questions.csv');
    writeFileSync(dataset, 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\nq2,How much storage do I get for free?,a phrase no answer has\n');
    env = {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace, SITECHAT_BASE_URL: stack.config.baseUrl,
      SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_RUNS_DIR: join(cliHost, 'runs'), SITECHAT_STORE_URL: url,
    };
  });
  afterAll(async () => {
    worker?.kill('SIGTERM');
    if (worker) await exited(worker);
    await receiver.close();
    await stack?.close();
  });

  it("a run's report.md on the CLI's host lists the notifications; the echoed path is nowhere", async () => {
    let hooks = 0;
    receiver.reply = (r) => {
      if (!r.path.startsWith('/hook')) return { status: 200 };
      return hooks++ === 0 ? { status: 500, headers: { 'Retry-After': '0' }, body: `POST ${r.path} failed` } : expressNotFound(r);
    };
    const ran = await sitechat(cliHost, ['run', dataset, '--no-worker', '--json', '--fail-under', '90%', '--notify', 'webhook:HOOK_URL:HOOK_SECRET', '--notify', 'slack:SLACK_URL'], env);
    expect(ran.code, ran.stderr).toBe(1);
    expect(hooks).toBe(2);
    const printed = JSON.parse(ran.stdout) as RunSummary;
    const reportDir = join(cliHost, 'runs', printed.runId);
    const md = readFileSync(join(reportDir, 'report.md'), 'utf8');
    const outcomes = JSON.parse(readFileSync(join(reportDir, 'notifications.json'), 'utf8')) as NotifyOutcome[];
    expect(outcomes).toEqual([
      expect.objectContaining({ destination: 'webhook (HOOK_URL)', status: 'failed', error: 'HTTP 404 Not Found', attempts: 2, deliveryId: expect.stringMatching(/^[0-9a-f]{32}$/u) }),
      expect.objectContaining({ destination: 'slack (SLACK_URL)', status: 'delivered', trigger: 'failed' }),
    ]);
    expect(notificationItems(md)).toEqual(outcomes.map(outcomeLine));

    const { binDir } = postgresBinaries();
    const dump = execFileSync(join(binDir as string, 'pg_dump'), ['--data-only', url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(dump).toContain('HTTP 404 Not Found');
    // The retried 500 was logged by the worker: the logs were where a reason would have leaked.
    expect(workerLogs).toContain('HTTP 500 Internal Server Error');
    const history = await historyText(stack.client, printed.workflowId);
    for (const [where, text] of Object.entries({ stdout: ran.stdout, stderr: ran.stderr, 'report.md': md, dump, history, workerLogs })) {
      for (const part of ECHOED) expect(text, `${where}: ${part}`).not.toContain(part);
      expect(text, where).not.toContain(SECRET);
    }
  });

  it("a multi-site run's combined report.md, rendered by the CLI from the store, lists them too", async () => {
    receiver.reply = () => ({ status: 200 });
    const ran = await sitechat(cliHost, ['run', dataset, '--site', SITES.join(','), '--no-worker', '--json', '--notify', 'slack:SLACK_URL', '--notify-on', 'always'], env);
    expect(ran.code, ran.stderr).toBe(0);
    const printed = JSON.parse(ran.stdout) as MultiSiteSummary;
    const reportDir = join(cliHost, 'runs', printed.runId);
    const md = readFileSync(join(reportDir, MultiSiteReportFile.markdown), 'utf8');
    const outcomes = JSON.parse(readFileSync(join(reportDir, 'notifications.json'), 'utf8')) as NotifyOutcome[];
    expect(outcomes).toEqual([expect.objectContaining({ destination: 'slack (SLACK_URL)', status: 'delivered', trigger: 'always' })]);
    expect(notificationItems(md)).toEqual(outcomes.map(outcomeLine));
  });
});
