import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sha256File } from '../../src/datasets/hash';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import type { RunSummary } from '../../src/domain/results';
import { CLI, sitechat } from '../helpers/cli';
import { startStack, type Stack } from '../helpers/stack';
import { describeWithPostgres } from '../helpers/usePostgres';
import { exited, spawnWorker } from '../helpers/workerProcess';

/** The history page's row of a run: its id (linked or not), then when it started and what made it. */
function rowOf(html: string, runId: string): string | undefined {
  return html.split('<tr>').find((r) => r.includes(`>${runId}</a></td>`) || r.includes(`<td>${runId}</td>`));
}

function section(html: string, title: string): string {
  const start = html.indexOf(`<h2>${title}</h2>`);
  expect(start, `a section "${title}"`).toBeGreaterThanOrEqual(0);
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}

describe('history.html is refreshed by each command that finishes a run (built CLI, embedded simulator)', () => {
  let dir: string;
  let env: Record<string, string>;
  let history: () => string;
  let evaluation: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-history-'));
    // Embedded server and simulator (an embedded simulator's worker joins no server its command did not start).
    env = { SITECHAT_RUNS_DIR: join(dir, 'runs') };
    writeFileSync(join(dir, 'q.csv'), 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\nq2,How much storage do I get for free?,5 GB\n');
    history = () => readFileSync(join(dir, 'runs', 'history.html'), 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('run --out: the run is on its dataset/site/model trend, linked to the reports where --out put them', async () => {
    const ran = await sitechat(dir, ['run', 'q.csv', '--out', 'reports/first', '--json'], env);
    expect(ran.code, ran.stderr).toBe(0);
    evaluation = (JSON.parse(ran.stdout) as RunSummary).runId;
    const group = section(history(), 'q.csv on site demo-site, the site&#39;s default model · built-in simulator');
    expect(group).toContain(`run ${evaluation} `);
    expect(rowOf(group, evaluation)).toContain(`<a href="../reports/first/report.html">${evaluation}</a></td>`);
    expect(rowOf(group, evaluation)).toContain('<td>evaluation</td>');
  });

  it('grade and backfill: listed apart from the evaluation trend', async () => {
    const graded = await sitechat(dir, ['grade', 'reports/first', '--json'], env);
    expect(graded.code, graded.stderr).toBe(0);
    const gradeId = (JSON.parse(graded.stdout) as RunSummary).runId;
    const backfill = await sitechat(dir, ['backfill', 'q.csv', '--json'], env);
    expect(backfill.code, backfill.stderr).toBe(0);
    const backfillId = (JSON.parse(backfill.stdout) as RunSummary).runId;
    const group = section(history(), 'q.csv on site demo-site, the site&#39;s default model · built-in simulator');
    const apart = group.slice(group.indexOf('Re-grades and backfills (2), not on the trend'));
    expect(rowOf(apart, gradeId)).toContain('<td>re-grade</td>');
    expect(rowOf(apart, backfillId)).toContain('<td>backfill</td>');
    const chart = group.slice(group.indexOf('<svg'), group.indexOf('</svg>'));
    expect(chart).toContain(`run ${evaluation} `);
    expect(chart).not.toContain(`run ${gradeId} `);
    expect(chart).not.toContain(`run ${backfillId} `);
  });

  it('a multi-site run: each site\'s run on its own trend, linked to its reports under --out', async () => {
    const ran = await sitechat(dir, ['run', 'q.csv', '--site', 'demo-site,demo-empty-site', '--out', 'reports/sites'], env);
    expect([0, 1], ran.stderr).toContain(ran.code);
    const runId = /started evaluation run (\S+)/u.exec(ran.stderr)?.[1] as string;
    for (const site of ['demo-site', 'demo-empty-site']) {
      const group = section(history(), `q.csv on site ${site}, the site&#39;s default model · built-in simulator`);
      expect(rowOf(group, `${runId}-${site}`)).toContain(`<a href="../reports/sites/${site}/report.html">`);
    }
  });

  it('backfill --resume: the resumed run is on the page once it finishes', async () => {
    // A backfill that answered q1 and stopped: its meta and one row in the file store, as a crashed run leaves them.
    const runId = '20261123-0000-abc123';
    const store = new FileResultsStore(join(dir, 'runs'));
    const dataset = join(dir, 'q.csv');
    await store.init(runId, {
      runId, workflowId: `sitechat-backfill-${runId}`, kind: 'backfill', dataset, datasetSha256: await sha256File(dataset), siteId: 'demo-site',
      startedAt: '2026-11-23T00:00:00.000Z', rowCount: 2, options: {},
    });
    await store.append(runId, [{ id: 'q1', index: 0, line: 2, question: 'How much does the Personal plan cost?', outcome: 'answered', answer: 'The Personal plan costs $9.99 per month.', finishedAt: '2026-11-23T00:00:01.000Z' }]);
    expect(existsSync(join(dir, 'runs', 'history.html')) ? history() : '').not.toContain(runId);
    const ran = await sitechat(dir, ['backfill', 'q.csv', '--resume', runId], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(`resuming ${runId}`);
    // Its meta was written without provenance (as before it was recorded): it is not put with the simulator's runs.
    expect(rowOf(section(history(), 'q.csv on site demo-site, the site&#39;s default model'), runId)).toContain('<td>backfill</td>');
  });
});

describeWithPostgres('history.html in a cluster: run --no-worker refreshes the page on the command\'s host', (pg) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(__filename, { latencyScale: 0.02 });
  });
  afterAll(async () => stack?.close());

  it('the worker on "another host" (its own runs directory) finalizes; the CLI\'s host gets the page and the link', async () => {
    const url = await pg.freshDatabase();
    const workerHost = join(stack.runsDir, 'worker-host');
    const cliHost = join(stack.runsDir, 'cli-host');
    mkdirSync(cliHost, { recursive: true });
    writeFileSync(join(cliHost, 'q.csv'), 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\n');
    const worker = spawnWorker(stack, { SITECHAT_RUNS_DIR: workerHost, SITECHAT_STORE_URL: url });
    try {
      const ran = await sitechat(cliHost, ['run', 'q.csv', '--no-worker', '--out', 'out', '--json'], {
        TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace, SITECHAT_BASE_URL: stack.config.baseUrl, SITECHAT_SITE_ID: 'demo-site',
        SITECHAT_EMAIL: 'qa@example.com', SITECHAT_RUNS_DIR: join(cliHost, 'runs'), SITECHAT_STORE_URL: url,
      });
      expect(ran.code, ran.stderr).toBe(0);
      const { runId } = JSON.parse(ran.stdout) as RunSummary;
      const page = readFileSync(join(cliHost, 'runs', 'history.html'), 'utf8');
      expect(rowOf(page, runId)).toContain(`<a href="../out/report.html">${runId}</a>`);
      expect(page).not.toContain(url);
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
    }
  });
});
