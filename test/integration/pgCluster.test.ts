import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Client } from 'pg';
import { ReportFile } from '../../src/store/files';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { DEMO } from '../../src/sim/constants';
import { demoFixturesWithSites } from '../../src/sim/siteCopies';
import { MultiSiteReportFile } from '../../src/render/multiSiteRender';
import type { MultiSiteSummary } from '../../src/domain/multiSite';
import { sitechat } from '../helpers/cli';
import { startStack, type Stack } from '../helpers/stack';
import { describeWithPostgres } from '../helpers/usePostgres';
import { exited, spawnWorker } from '../helpers/workerProcess';

const QUESTIONS = [
  'How much does the Personal plan cost?,$9.99',
  'How much storage do I get for free?,5 GB',
  'Can I get a refund for my annual subscription?,14 days',
];
const ROWS = 24;
const SITES = [DEMO.siteId, 'demo-site-2'];

/** Every directory and file under `dir`, relative. */
function tree(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => [prefix + e.name, ...(e.isDirectory() ? tree(join(dir, e.name), `${prefix}${e.name}/`) : [])]);
}

describeWithPostgres('a cluster on the PostgreSQL store: two workers, two local directories, one database', (pg) => {
  let stack: Stack;
  let url: string;
  beforeAll(async () => {
    stack = await startStack(__filename, { latencyScale: 0.05, fixtures: demoFixturesWithSites(SITES) });
    url = await pg.freshDatabase();
  });
  afterAll(async () => stack?.close());

  it('records every row once, and the CLI gets the reports on its own host', async () => {
    const hostA = join(stack.runsDir, 'worker-a');
    const hostB = join(stack.runsDir, 'worker-b');
    const cliHost = join(stack.runsDir, 'cli');
    mkdirSync(join(cliHost, 'datasets'), { recursive: true });
    const dataset = join(cliHost, 'datasets', 'questions.csv');
    writeFileSync(dataset, ['id,question,must_include', ...Array.from({ length: ROWS }, (_, i) => `q${i + 1},${QUESTIONS[i % 3]}`)].join('\n') + '\n');

    const workers = [hostA, hostB].map((dir) => spawnWorker(stack, { SITECHAT_RUNS_DIR: dir, SITECHAT_STORE_URL: url }));
    const env = {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace, SITECHAT_BASE_URL: stack.config.baseUrl,
      SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_EMAIL: 'qa@example.com', SITECHAT_RUNS_DIR: join(cliHost, 'runs'), SITECHAT_STORE_URL: url,
    };
    try {
      const ran = await sitechat(cliHost, ['run', dataset, '--no-worker', '--json', '--concurrency', '6', '--fail-under', '90%'], env);
      expect(ran.code, ran.stderr).toBe(0);
      const printed = JSON.parse(ran.stdout) as RunSummary;
      expect(printed).toMatchObject({ total: ROWS, passed: ROWS, missing: 0 });
      const { runId } = printed;
      expect(ran.stderr).not.toContain(url);

      // The database holds each row once; the simulator was asked each question once.
      const db = new Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query<{ n: string; ids: string }>('SELECT count(*) AS n, count(DISTINCT row_id) AS ids FROM run_rows WHERE run_id = $1', [runId]);
        expect(rows[0]).toEqual({ n: String(ROWS), ids: String(ROWS) });
      } finally {
        await db.end();
      }
      const stats = stack.sim.stats();
      expect(stats.submitted).toBe(ROWS);
      expect(stats.duplicateSubmissions).toBe(0);

      // The CLI rendered the five reports from the store into its own runs dir.
      const reportDir = join(cliHost, 'runs', runId);
      const results = readFileSync(join(reportDir, ReportFile.results), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);
      expect(results.map((r) => r.id)).toEqual(Array.from({ length: ROWS }, (_, i) => `q${i + 1}`));
      expect(results.every((r) => r.outcome === 'passed')).toBe(true);
      expect((JSON.parse(readFileSync(join(reportDir, ReportFile.summary), 'utf8')) as RunSummary).gate?.verdict).toBe('passed');
      for (const file of Object.values(ReportFile)) expect(existsSync(join(reportDir, file)), file).toBe(true);

      // Neither worker kept a plan or a row on its disk: only the finalizing one has report files.
      const local = [...tree(hostA), ...tree(hostB)];
      expect(local.filter((p) => /plan|rows\.log|meta\.json|submissions/u.test(p))).toEqual([]);

      // A third host lists the run from the store and gets its reports too.
      const third = join(stack.runsDir, 'third');
      mkdirSync(third);
      const listed = await sitechat(third, ['runs', '--json'], { ...env, SITECHAT_RUNS_DIR: join(third, 'runs') });
      expect(listed.code, listed.stderr).toBe(0);
      const entries = JSON.parse(listed.stdout) as { runId: string; rows: number; verdict: string; reportHtml?: string }[];
      expect(entries).toEqual([expect.objectContaining({ runId, rows: ROWS, verdict: 'passed', reportHtml: join(third, 'runs', runId, ReportFile.html) })]);
    } finally {
      for (const w of workers) w.kill('SIGTERM');
      await Promise.all(workers.map(exited));
    }
  });
  it('a multi-site run: the CLI renders every site\'s reports and the combined one on its own host', async () => {
    const cliHost = join(stack.runsDir, 'cli-multi');
    mkdirSync(cliHost, { recursive: true });
    const dataset = join(cliHost, 'questions.csv');
    writeFileSync(dataset, ['id,question,must_include', ...Array.from({ length: 6 }, (_, i) => `q${i + 1},${QUESTIONS[i % 3]}`)].join('\n') + '\n');
    const workerDir = join(stack.runsDir, 'worker-multi');
    const worker = spawnWorker(stack, { SITECHAT_RUNS_DIR: workerDir, SITECHAT_STORE_URL: url });
    const env = {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace, SITECHAT_BASE_URL: stack.config.baseUrl,
      SITECHAT_RUNS_DIR: join(cliHost, 'runs'), SITECHAT_STORE_URL: url,
    };
    try {
      const ran = await sitechat(cliHost, ['run', dataset, '--site', SITES.join(','), '--no-worker', '--json', '--concurrency', '6'], env);
      expect(ran.code, ran.stderr).toBe(0);
      const printed = JSON.parse(ran.stdout) as MultiSiteSummary;
      const reportDir = join(cliHost, 'runs', printed.runId);
      const combined = JSON.parse(readFileSync(join(reportDir, MultiSiteReportFile.summary), 'utf8')) as MultiSiteSummary;
      expect(combined).toMatchObject({ total: 12, passed: 12 });
      const siteDir = (site: string): string => join(cliHost, 'runs', `${printed.runId}-${site}`);
      expect(combined.sites.map((l) => [l.siteId, l.passed, l.reportDir])).toEqual(SITES.map((site) => [site, 6, siteDir(site)]));
      for (const file of Object.values(MultiSiteReportFile)) expect(existsSync(join(reportDir, file)), file).toBe(true);
      for (const site of SITES) {
        const results = readFileSync(join(siteDir(site), ReportFile.results), 'utf8').trim().split('\n');
        expect(results).toHaveLength(6);
      }
      // The combined report links each site's report on this host.
      expect(readFileSync(join(reportDir, MultiSiteReportFile.markdown), 'utf8')).toContain(`(../${printed.runId}-${SITES[1]}/${ReportFile.markdown})`);
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
    }
  });
});
