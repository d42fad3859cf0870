import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256File } from '../../src/datasets';
import type { MultiSiteSummary } from '../../src/domain/multiSite';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import { DEMO } from '../../src/sim/constants';
import { demoFixturesWithSites } from '../../src/sim/siteCopies';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { executeWorkflow, startWorkflow } from '../../workflows/starts';
import { MULTI_SITE_WORKFLOW_TYPE } from '../../workflows/multiSiteSignals';
import { cancelSignal } from '../../workflows/signals';
import type { MultiSiteInput } from '../../src/domain/multiSite';
import { DEMO_HEADER, defaultOptions, demoRows, readResults, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';

const SITES = [DEMO.siteId, 'demo-site-2', 'demo-site-3'];
let seq = 0;

/** 3 sites of one tenant, the API's 5/s per path enforced by the simulator, the workers' budget 5/s per site. */
describe('multi-site runs (real Temporal + simulator enforcing 5/s per path)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(__filename, { rateLimit: 5, latencyScale: 0.02, fixtures: demoFixturesWithSites(SITES) }, { ratePerSecond: 5, pollIntervalMs: 200 });
    await stack.startWorkers();
  });
  afterAll(async () => stack?.close());
  beforeEach(() => stack.sim.reset());

  async function start(sites: string[], rows: number, options: Partial<MultiSiteInput['options']> = {}) {
    const dataset = writeDataset(stack, DEMO_HEADER, demoRows(rows));
    const runId = `ms${Date.now()}-${++seq}`;
    const input: MultiSiteInput = {
      kind: 'evaluation', runId, sites, dataset: { path: dataset, sha256: await sha256File(dataset) },
      options: { ...defaultOptions, siteId: sites.join(','), concurrency: 10, answerTimeoutMs: 120_000, ...options },
    };
    const handle = await startWorkflow(stack.client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
    return { runId, handle };
  }

  it('3 sites at once: every row × site recorded once, per-site and combined reports, 0 × 429, the sites overlap in time', async () => {
    const { runId, handle } = await start(SITES, 20);
    const result = await handle.result();
    const stats = stack.sim.stats();
    expect(stats.rateLimited).toBe(0);
    expect(stats.submitted).toBe(60);
    expect(Math.max(...Object.values(stats.peakRatePerPath))).toBeLessThanOrEqual(5);

    const summary = result.summary;
    expect(summary.total).toBe(60);
    expect(summary.siteId).toBe(SITES.join(','));
    expect(summary.sites.map((s) => s.siteId)).toEqual(SITES);
    expect(summary.gate?.verdict).toBe('no_threshold');
    for (const site of summary.sites) {
      expect(site.runId).toBe(`${runId}-${site.siteId}`);
      expect(site.rows).toBe(20);
      expect(site.passed + site.failed).toBe(20);
      const rows = readResults(site.reportDir as string);
      expect(new Set(rows.map((r) => r.id)).size).toBe(20);
      expect(rows).toHaveLength(20);
    }
    expect(result.reportDir).toBe(join(stack.runsDir, runId));
    for (const f of ['summary.json', 'report.md', 'report.html', 'junit.xml']) expect(existsSync(join(result.reportDir, f)), f).toBe(true);
    const written = JSON.parse(readFileSync(join(result.reportDir, 'summary.json'), 'utf8')) as MultiSiteSummary;
    expect(written.sites.map((s) => s.reportDir)).toEqual(SITES.map((s) => join(stack.runsDir, `${runId}-${s}`)));
    expect(readFileSync(join(result.reportDir, 'report.md'), 'utf8')).toContain(`[demo-site-2](../${runId}-demo-site-2/report.md)`);

    // Concurrent, not one after the other: every site sent its first question before any site sent its last.
    const store = new FileResultsStore(stack.runsDir);
    const spans = await Promise.all(SITES.map(async (site) => {
      const times: number[] = [];
      for await (const s of store.readSubmissions(`${runId}-${site}`)) if (s.submittedAtMs !== undefined) times.push(s.submittedAtMs);
      expect(times).toHaveLength(20);
      return { first: Math.min(...times), last: Math.max(...times) };
    }));
    expect(Math.max(...spans.map((s) => s.first))).toBeLessThan(Math.min(...spans.map((s) => s.last)));
  }, 240_000);

  it('per-site gates: a site below --fail-under fails the run, the others pass; each compares with its own baseline', async () => {
    const sites = [DEMO.siteId, 'demo-empty-site'];
    const first = await (await start(sites, 5, { failUnder: 0.6 })).handle.result();
    const bySite = Object.fromEntries(first.summary.sites.map((s) => [s.siteId, s]));
    expect(bySite[DEMO.siteId]?.verdict).toBe('passed');
    expect(bySite['demo-empty-site']?.verdict).toBe('failed');
    expect(first.summary.gate?.verdict).toBe('failed');
    expect(first.summary.gate?.reasons.join('\n')).toMatch(/^site demo-empty-site: pass rate/m);
    expect(first.summary.gate?.reasons.join('\n')).not.toMatch(/site demo-site:/);

    // Same dataset bytes again, `--baseline latest`: each site picks its own previous run.
    const dataset = first.summary.dataset;
    const runId = `ms${Date.now()}-${++seq}`;
    const input: MultiSiteInput = {
      kind: 'evaluation', runId, sites, dataset: { path: dataset, sha256: await sha256File(dataset) },
      options: { ...defaultOptions, siteId: sites.join(','), baseline: 'latest', failUnder: 0.6 },
    };
    const second = await executeWorkflow(stack.client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
    for (const site of second.summary.sites) {
      const own = first.summary.sites.find((s) => s.siteId === site.siteId);
      expect(site.baseline?.runId, site.siteId).toBe(own?.runId);
    }
  }, 240_000);

  it('a cancel reaches every site: each drains, writes its reports, and the run is CANCELLED', async () => {
    const { handle } = await start(SITES, 40);
    while (stack.sim.stats().submitted < 6) await new Promise((r) => setTimeout(r, 100));
    await handle.signal(cancelSignal);
    const result = await handle.result();
    expect(result.cancelled).toBe(true);
    expect(result.summary.gate?.verdict).toBe('cancelled');
    expect(result.summary.sites.map((s) => s.verdict)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    for (const site of result.summary.sites) {
      expect(site.rows).toBe(40);
      expect(site.skipped).toBeGreaterThan(0);
      expect(existsSync(join(site.reportDir as string, 'report.html'))).toBe(true);
    }
    expect(stack.sim.stats().submitted).toBeLessThan(120);
  }, 240_000);

  it('an unknown site in the list: nothing is asked on any site, the run fails naming the site', async () => {
    const { handle } = await start([DEMO.siteId, 'no-such-site'], 5);
    const err = await handle.result().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(String((err as WorkflowFailedError).cause?.message)).toMatch(/site no-such-site: .*site not found.*nothing was asked on any site/);
    expect(stack.sim.stats().submitted).toBe(0);
  }, 120_000);
});
