import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerProvenance } from '../../../activities';
import { cleanupActivities } from '../../../activities/cleanup';
import type { ActivityDeps } from '../../../activities/deps';
import { buildInfo } from '../../../src/shared/buildInfo';
import { Secret } from '../../../src/api/secret';
import { JUDGE_DEFAULTS } from '../../../src/grading/judge/settings';
import { finalizeRun } from '../../../src/render/writeReports';
import { summarizeMultiSite } from '../../../src/analysis/multiSite';
import { writeMultiSiteReports } from '../../../src/render/multiSiteRender';
import { AnswerSource, gradingOf, hostOf, runAnswers, SIMULATOR_BANNER, type Provenance } from '../../../src/domain/provenance';
import { BUILT_IN_SIMULATOR_API } from '../../../src/api/identity';
import type { CleanupReport } from '../../../src/cleanup/types';
import { meta, row, useTempStore } from './fixtures';

const API_KEY = 'sk-live-topsecret-4242';
const JUDGE_KEY = 'judge-key-very-secret-99';
const STORE_PASSWORD = 'pg-password-77';

/** What a worker on a real site with a judge records: credentials and a query in both URLs, to show they go nowhere. */
function realWorker(): Provenance {
  const worker = workerProvenance({
    baseUrl: `https://bot:${API_KEY}@chat.example.com:8443/api/v1?token=${API_KEY}`, apiKey: API_KEY, runsDir: '/tmp/x',
    storeUrl: new Secret(`postgres://u:${STORE_PASSWORD}@db/x`), ratePerSecond: 5, pollIntervalMs: 1000, maxConcurrentAsks: 1, pollScope: 'path', egressIps: 1,
    siteRates: {}, pacerDir: '/tmp/p',
    judge: { ...JUDGE_DEFAULTS, baseUrl: `https://judge.example.org/v1?api-key=${JUDGE_KEY}`, apiKey: new Secret(JUDGE_KEY), model: 'gpt-judge-1' },
  });
  return { ...worker, grading: gradingOf([{ type: 'llm-rubric', value: 'is polite' }, { type: 'f1', threshold: 0.5 }], { reference: 0.7 }) };
}

async function readAll(dir: string): Promise<string> {
  const names = await readdir(dir);
  return (await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8').catch(() => '')))).join('\n');
}

describe('provenance', () => {
  const ctx = useTempStore();

  it('hostOf keeps the host and port only, and says "unknown" for what is not a URL', () => {
    expect(hostOf('https://user:pw@api.example.com:8443/api/v1?key=k#f')).toBe('api.example.com:8443');
    expect(hostOf('sk-not-a-url')).toBe('unknown');
    expect(hostOf(undefined)).toBe('unknown');
  });

  it('a worker records hosts, the judge model, its build; the runner version is package.json\'s', async () => {
    const p = realWorker();
    expect(p.answers).toEqual({ from: AnswerSource.api, host: 'chat.example.com:8443' });
    expect(p.judge).toEqual({ model: 'gpt-judge-1', host: 'judge.example.org', simulator: false });
    expect(p.grading).toEqual({ assertions: [{ type: 'llm-rubric' }, { type: 'f1', threshold: 0.5 }], thresholds: { reference: 0.7 } });
    const pkg = JSON.parse(await readFile(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(p.runner.version).toBe(pkg.version);
    expect(p.runner).toEqual(buildInfo());
  });

  it('every report file of a run names the API host, judge, graders and build, and holds no secret', async () => {
    const provenance = realWorker();
    await ctx.store.init('r', meta({ runId: 'r', rowCount: 1, provenance }));
    await ctx.store.append('r', [row(0)]);
    const out = join(ctx.dir, 'out');
    const { summary } = await finalizeRun(ctx.store, 'r', { outDir: out, gate: { failUnder: 0.5 } });
    expect(summary.provenance).toEqual(provenance);
    const json = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { provenance: Provenance };
    expect(json.provenance).toEqual(provenance);
    const md = await readFile(join(out, 'report.md'), 'utf8');
    expect(md).toContain('| Answers | answers from the Site Chat API at chat.example.com:8443 |');
    expect(md).toContain('| Judge | gpt-judge-1 at judge.example.org |');
    expect(md).toContain('| Graders | llm-rubric, f1 ≥ 0.5 on every row, and each row\'s own; pass marks: reference 0.7 |');
    expect(md).toContain(`| Runner | sitechat-runner ${provenance.runner.version}, commit ${provenance.runner.commit} |`);
    expect(md).not.toContain(SIMULATOR_BANNER);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<dd data-provenance="answers">answers from the Site Chat API at chat.example.com:8443</dd>');
    expect(html).toContain('<dd data-provenance="judge">gpt-judge-1 at judge.example.org</dd>');
    expect(html).not.toContain('banner simulator');
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    for (const [name, value] of [['provenance.answersFrom', 'api'], ['provenance.apiHost', 'chat.example.com:8443'], ['provenance.judgeModel', 'gpt-judge-1'],
      ['provenance.judgeHost', 'judge.example.org'], ['provenance.runnerVersion', provenance.runner.version], ['provenance.runnerCommit', provenance.runner.commit]]) {
      expect(junit).toContain(`<property name="${name}" value="${value}"/>`);
    }
    const everything = await readAll(out);
    for (const secret of [API_KEY, JUDGE_KEY, STORE_PASSWORD, 'token=', 'api-key=']) expect(everything).not.toContain(secret);
  });

  it('answers from the built-in simulator are said first, in md and html; a run without provenance (older) renders without it', async () => {
    const simulated: Provenance = {
      answers: { from: AnswerSource.simulator, host: '127.0.0.1:4000' }, judge: { model: 'sim-judge', host: '127.0.0.1:4000', simulator: true },
      grading: gradingOf([]), runner: buildInfo(),
    };
    await ctx.store.init('s', meta({ runId: 's', rowCount: 1, provenance: simulated }));
    await ctx.store.append('s', [row(0)]);
    await finalizeRun(ctx.store, 's', { outDir: join(ctx.dir, 's') });
    const md = await readFile(join(ctx.dir, 's', 'report.md'), 'utf8');
    expect(md.split('\n\n')[1]).toContain(`**⚠ ${SIMULATOR_BANNER}.**`);
    const html = await readFile(join(ctx.dir, 's', 'report.html'), 'utf8');
    expect(html).toMatch(new RegExp(`<header><h1>[^<]*</h1><p class="banner simulator" role="note"><b>⚠ ${SIMULATOR_BANNER}\\.</b>`));
    expect(html).toContain('(the built-in simulator&#39;s judge route: a test double, not a model)');

    await ctx.store.init('old', meta({ runId: 'old', rowCount: 1 }));
    await ctx.store.append('old', [row(0)]);
    await finalizeRun(ctx.store, 'old', { outDir: join(ctx.dir, 'old') });
    expect(await readFile(join(ctx.dir, 'old', 'report.md'), 'utf8')).not.toContain('## Provenance');
  });

  it('the multi-site combined report carries the sites\' provenance into all four files', async () => {
    const provenance = realWorker();
    for (const site of ['a', 'b']) {
      await ctx.store.init(`m-${site}`, meta({ runId: `m-${site}`, siteId: site, rowCount: 1, provenance }));
      await ctx.store.append(`m-${site}`, [row(0)]);
      await finalizeRun(ctx.store, `m-${site}`, { outDir: join(ctx.dir, `m-${site}`), gate: { failUnder: 0.5 } });
    }
    const summary = await summarizeMultiSite(ctx.store, {
      runId: 'm', workflowId: 'wm', kind: 'evaluation', dataset: 'datasets/demo.csv', startedAt: '2025-01-01T00:00:00.000Z',
      sites: ['a', 'b'].map((s) => ({ siteId: s, runId: `m-${s}`, workflowId: `wm-${s}`, reportDir: join(ctx.dir, `m-${s}`) })),
    });
    expect(summary.provenance).toEqual(provenance);
    const out = join(ctx.dir, 'm');
    await writeMultiSiteReports(summary, out);
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('| Answers | answers from the Site Chat API at chat.example.com:8443 |');
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('<dd data-provenance="judge">gpt-judge-1 at judge.example.org</dd>');
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toContain('<property name="provenance.apiHost" value="chat.example.com:8443"/>');
    expect((JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { provenance: Provenance }).provenance).toEqual(provenance);
    expect(await readAll(out)).not.toContain(API_KEY);
  });

  it('a cleanup report file says which API it closed sessions on and which build did it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cleanup-prov-'));
    try {
      const provenance = realWorker();
      const { writeCleanupReport } = cleanupActivities({ runsDir: dir, provenance } as unknown as ActivityDeps);
      const report = { reportId: 'c1', workflowId: 'wc', siteId: 's', dryRun: true, rule: {}, startedAt: 'x', finishedAt: 'y', passes: 1, pages: 1,
        counts: { listed: 0, matched: 0, closed: 0, alreadyClosed: 0, failed: 0, unreadable: 0, relisted: 0 }, samples: [], failures: [], failureReasons: {}, complete: true, notes: [] };
      const path = await writeCleanupReport(report as unknown as CleanupReport);
      const text = await readFile(path, 'utf8');
      expect((JSON.parse(text) as CleanupReport).provenance).toEqual({ answers: provenance.answers, runner: provenance.runner });
      expect(text).not.toContain(API_KEY);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('where a run\'s answers come from: the run\'s API, whichever worker writes it down', () => {
  const simulated = { from: AnswerSource.simulator, host: '127.0.0.1:40973' } as const;
  it('a worker of the run\'s API describes its own answers (it knows whether it is the built-in simulator)', () => {
    expect(runAnswers(BUILT_IN_SIMULATOR_API, { api: BUILT_IN_SIMULATOR_API, answers: simulated })).toEqual(simulated);
  });

  it('a worker of another API (which prepared the run) names the run\'s API, never its own', () => {
    expect(runAnswers('https://chat.example.com/api/v1', { api: BUILT_IN_SIMULATOR_API, answers: simulated })).toEqual({ from: AnswerSource.api, host: 'chat.example.com' });
    expect(runAnswers(BUILT_IN_SIMULATOR_API, { api: 'https://chat.example.com/api/v1', answers: { from: AnswerSource.api, host: 'chat.example.com' } }))
      .toEqual({ from: AnswerSource.simulator });
  });
});
