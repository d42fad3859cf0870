import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MultiSiteSummary } from '../../src/domain/multiSite';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { DEMO, startSimulator, type SimulatorHandle } from '../../src/sim';
import { WEAK_MODEL } from '../../src/sim/kb/models';
import { demoFixturesWithSites } from '../../src/sim/siteCopies';
import { CLI, sitechat } from '../helpers/cli';

const SITES = [DEMO.siteId, 'demo-site-2'];

/** Questions the default model answers right and the weak model wrong. */
const ROWS = [
  'k1,How much does the Personal plan cost?,$9.99',
  'k2,How much storage do I get for free?,5 GB',
  'k3,How do I choose which folders sync to my computer?,Selective sync',
  'k4,Can I use my files offline on my phone?,Make available offline',
  'k5,How do I add a new member to my team?,Invite',
  'k6,Can we use single sign-on with Okta?,SAML 2.0',
];

function results(dir: string): RowResult[] {
  return readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);
}

describe('sitechat run --site a,b --repeat 2 --confirm 2 (the CLI and its Temporal dev server, the simulator over HTTP)', () => {
  let dir: string;
  let sim: SimulatorHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-multisite-repeat-'));
    writeFileSync(join(dir, 'q.csv'), `id,question,must_include\n${ROWS.join('\n')}\n`);
    sim = await startSimulator({ port: 0, rateLimit: 0, latencyScale: 0.02, fixtures: demoFixturesWithSites(SITES) });
    env = { SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey };
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("repeats and confirms each site's rows on its own, asks only the rows the verdict needs, and fails on a real degradation", async () => {
    const base = await sitechat(dir, ['run', 'q.csv', '--site', SITES.join(','), '--repeat', '2', '--out', join(dir, 'base')], env);
    expect(base.code, base.stderr).toBe(0);
    for (const site of SITES) {
      const rows = results(join(dir, 'base', site));
      expect(rows.map((r) => r.id).sort()).toEqual(ROWS.flatMap((r) => [r.split(',')[0], `${r.split(',')[0]}#r2`]).sort());
      expect(rows.every((r) => r.outcome === 'passed'), site).toBe(true);
    }

    // Both sites get worse between the two runs, through the simulator's admin route.
    for (const site of SITES) {
      const res = await fetch(`${sim.origin}/__sim/sites/${site}/answer-model`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: WEAK_MODEL }) });
      expect(res.status).toBe(200);
    }
    const sent = sim.stats().submitted;
    const worse = await sitechat(dir, ['run', 'q.csv', '--site', SITES.join(','), '--repeat', '2', '--confirm', '2', '--baseline', 'latest', '--out', join(dir, 'worse')], env);
    expect(worse.code, worse.stdout + worse.stderr).toBe(1);

    let asked = 0;
    for (const site of SITES) {
      const summary = JSON.parse(readFileSync(join(dir, 'worse', site, 'summary.json'), 'utf8')) as RunSummary;
      // Compared with this site's own baseline, row by row over 2 answers each.
      expect(summary.baseline?.runId).toContain(site);
      expect(summary.baseline?.repeated).toMatchObject({ baselineRepeat: 2, runRepeat: 2, significant: true });
      expect(summary.baseline?.regressed.sort()).toEqual(['k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
      const rows = results(join(dir, 'worse', site));
      const confirming = rows.filter((r) => r.confirm !== undefined);
      // Sequential: a round of 5 reproduced regressions keeps the CMH test significant, so the 6th row is not asked.
      const c = summary.baseline?.confirmation;
      expect(c).toMatchObject({ k: 2, rows: 5, questions: 10, notReproduced: [] });
      expect(c?.unconfirmed).toHaveLength(1);
      expect(confirming).toHaveLength(10);
      for (const r of confirming) {
        expect(c?.reproduced).toContain(r.baseId);
        expect(r.id).toBe(`${r.baseId}#c${r.confirm}`);
        expect(r.outcome).toBe('failed');
      }
      // Every first answer repeated twice; the confirming answers are not rows of the run.
      expect(summary).toMatchObject({ total: 12, repeats: { n: 2, rows: 6 }, gate: { verdict: 'failed' } });
      // junit.xml: one test case per dataset row (k of 2 in its message) and the gate's; no confirming answer.
      const junit = readFileSync(join(dir, 'worse', site, 'junit.xml'), 'utf8');
      expect(junit.match(/<testcase /g)).toHaveLength(6 + 1);
      expect(junit).toContain('tests="7" failures="7"');
      expect(junit).toContain('regressed (passed in ');
      expect(junit).toContain('0 of 2 graded answers passed (2 asked)');
      expect(junit).not.toMatch(/name="k\d#/);
      asked += summary.total + (c?.questions ?? 0);
    }
    // The simulator saw exactly the repeats and confirming answers of both sites, nothing more.
    expect(sim.stats().submitted - sent).toBe(asked);
    expect(asked).toBe(2 * (12 + 10));
    const combined = JSON.parse(readFileSync(join(dir, 'worse', 'summary.json'), 'utf8')) as MultiSiteSummary;
    expect(combined.sites.map((s) => s.siteId)).toEqual(SITES);
    // The combined figures keep each site's rows apart: 6 rows on each of 2 sites, 2 answers each, all failed.
    expect(combined.repeats).toMatchObject({ n: 2, rows: 12, allFailed: 12, kOfN: { '0/2': 12 } });
    // The warning's wording is pinned in test/unit/reports/gate.test.ts; here, that each site's is printed.
    for (const site of SITES) expect(worse.stdout).toContain(`site ${site}: 1 regressed row was not asked again`);
    expect(worse.stdout).toContain('the verdict was decided without it');
  }, 240_000);
});
