import { describe, expect, it } from 'vitest';
import { combineProgress } from '../../../src/cli/commands/run/multiSite';
import { UsageError } from '../../../src/cli/usageError';
import { isSiteList, parseSiteList } from '../../../src/cli/commands/run/siteList';
import { summaryTable } from '../../../src/cli/follow/summaryTable';
import { validateRunFlags } from '../../../src/cli/commands/run/validate';
import type { MultiSiteSummary } from '../../../src/domain/multiSite';
import { nightlySchedule } from '../../../src/schedules';
import { emptyCounts, type RunOptions, type RunProgress } from '../../../src/domain/run';

describe('parseSiteList', () => {
  it('splits, trims and keeps the order', () => {
    expect(parseSiteList('a, b ,c', '--site')).toEqual(['a', 'b', 'c']);
    expect(isSiteList('a,b')).toBe(true);
    expect(isSiteList('a')).toBe(false);
    expect(isSiteList(undefined)).toBe(false);
  });

  it('refuses empty names, duplicates and names unsafe as folders, naming the flag and every problem', () => {
    expect(() => parseSiteList('a,,b', '--site')).toThrow(/^--site "a,,b": site 2 of 3 is empty$/);
    expect(() => parseSiteList('a,b,', '--site')).toThrow(/site 3 of 3 is empty/);
    expect(() => parseSiteList('a,b,a', 'SITECHAT_SITE_ID')).toThrow(/^SITECHAT_SITE_ID "a,b,a": site "a" is given twice$/);
    expect(() => parseSiteList('a,../x', '--site')).toThrow(/site "\.\.\/x" is not a site id/);
    expect(() => parseSiteList('a,,a', '--site')).toThrow(UsageError);
  });
});

describe('validateRunFlags with several sites', () => {
  it('reports a bad list under the flag it came from, and refuses backfills and --resume', async () => {
    expect((await validateRunFlags('evaluation', { worker: true, site: 'a,b' }, {})).problems).toEqual([]);
    expect((await validateRunFlags('evaluation', { worker: true, site: 'a,,b' }, {})).problems).toEqual(['--site: "a,,b": site 2 of 3 is empty']);
    expect((await validateRunFlags('evaluation', { worker: true }, {}, 'x,x')).problems).toEqual(['SITECHAT_SITE_ID: "x,x": site "x" is given twice']);
    expect((await validateRunFlags('backfill', { worker: true, site: 'a,b' }, {})).problems).toEqual([
      '--site: a backfill asks one site (its answers file is per site): run one backfill per site',
    ]);
    expect((await validateRunFlags('evaluation', { worker: true, site: 'a,b', resume: '20260101-0000-aaaaaa' }, {})).problems[0]).toMatch(/^--resume: resume a multi-site run one site at a time/);
  });
});

function progress(overrides: Partial<RunProgress>): RunProgress {
  return {
    runId: 'r', total: 10, counts: emptyCounts(), inFlight: 0, chunksDone: 0, chunks: 1, startedAt: 1_000, updatedAt: 11_000,
    throughput: 0, cancelling: false, phase: 'running', ...overrides,
  };
}

describe('combineProgress', () => {
  it('adds the sites up, with the throughput of the whole run and the busiest phase', () => {
    const a = progress({ counts: { ...emptyCounts(), passed: 4, failed: 1 }, inFlight: 3 });
    const b = progress({ counts: { ...emptyCounts(), passed: 5 }, inFlight: 2, phase: 'finishing', startedAt: 2_000 });
    const p = combineProgress('parent', [a, b], 2);
    expect(p).toMatchObject({ runId: 'parent', total: 20, inFlight: 5, startedAt: 1_000, updatedAt: 11_000, phase: 'running', chunks: 2 });
    expect(p.counts).toEqual({ ...emptyCounts(), passed: 9, failed: 1 });
    expect(p.throughput).toBeCloseTo(1);
    expect(p.etaMs).toBeCloseTo(10_000);
  });

  it('a site that has not answered yet keeps the run preparing; all done is done', () => {
    expect(combineProgress('p', [progress({ phase: 'done' })], 2).phase).toBe('preparing');
    expect(combineProgress('p', [progress({ phase: 'done' }), progress({ phase: 'done' })], 2).phase).toBe('done');
  });
});

const options: RunOptions = {
  siteId: 'shop-de,shop-fr', concurrency: 10, feedback: 'graded', answerTimeoutMs: 60_000, assertions: [], closeSessions: true, mode: 'async',
};

describe('nightlySchedule with several sites', () => {
  it('starts one multi-site run per firing; one site still starts an ordinary evaluation', () => {
    const multi = nightlySchedule('n', '/data/q.csv', options, { cron: '0 2 * * *' });
    expect(multi.action).toMatchObject({ workflowType: 'multiSiteRun', args: [{ kind: 'evaluation', runId: '', sites: ['shop-de', 'shop-fr'] }] });
    const single = nightlySchedule('n', '/data/q.csv', { ...options, siteId: 'shop-de' }, { cron: '0 2 * * *' });
    expect(single.action).toMatchObject({ workflowType: 'evaluationRun' });
    expect((single.action as unknown as { args: [{ sites?: string[] }] }).args[0].sites).toBeUndefined();
  });
});

describe('summaryTable of a multi-site run', () => {
  it('lists every site with its rows, pass rate, errors and verdict', () => {
    const base = {
      runId: 'r', workflowId: 'w', kind: 'evaluation', dataset: 'q.csv', datasetSha256: 'x', siteId: 'a,b', model: null, startedAt: '', finishedAt: null,
      durationMs: null, total: 4, missing: 0, passed: 3, failed: 1, answered: 0, error: 0, timedOut: 0, skipped: 0, graded: 4, passRate: 0.75,
      feedback: { good: 3, bad: 1, failed: 0 }, sessions: { opened: 4, closed: 4, closeFailed: 0 }, latencyMs: { p50: 1, p95: 1, max: 1 },
      distributions: { latencyMs: { start: 0, width: 1, counts: [] }, confidence: { start: 0, width: 1, counts: [] } }, byTag: {}, errorsByType: {}, cancelled: false,
    } as const;
    const line = { rows: 2, answered: 0, error: 0, timedOut: 0, skipped: 0, missing: 0, errorRate: 0, durationMs: 1 };
    const text = summaryTable({
      ...base,
      sites: [
        { ...line, siteId: 'a', runId: 'r-a', workflowId: 'w-a', reportDir: '/runs/r-a', passed: 2, failed: 0, passRate: 1, verdict: 'passed' },
        { ...line, siteId: 'bb', runId: 'r-bb', workflowId: 'w-bb', passed: 1, failed: 0, passRate: null, error: 1, verdict: 'run_failed', failure: '401 invalid_api_key' },
      ],
    } as unknown as MultiSiteSummary);
    expect(text).toContain('sites      a   2 rows, pass rate 100.0%, errors 0, PASSED — /runs/r-a');
    expect(text).toContain('           bb  2 rows, pass rate n/a, errors 1, RUN FAILED — 401 invalid_api_key');
  });
});
