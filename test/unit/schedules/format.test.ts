import { describe, expect, it } from 'vitest';
import { formatScheduleDetails } from '../../../src/schedules/format';
import type { ScheduleDetails } from '../../../src/schedules/manage';

function details(overrides: Partial<ScheduleDetails> = {}): ScheduleDetails {
  return {
    id: 'nightly', kind: 'nightly', cron: '0 2 * * *', workflowType: 'evaluationRun', taskQueue: 'sitechat-runner', workflowId: 'sitechat-evaluation-nightly',
    paused: false, nextRuns: ['2026-01-02T02:00:00.000Z'], recentRuns: [], overlap: 'SKIP', catchupWindowMs: 3_600_000, pauseOnFailure: false,
    actionsTaken: 0, skippedOverlap: 0, missedCatchup: 0, running: [], createdAt: '2026-01-01T00:00:00.000Z',
    input: { kind: 'evaluation', dataset: { path: '/data/nightly.csv' }, options: { siteId: 'demo-site', concurrency: 3, baseline: 'latest', failUnder: 0.5 } },
    ...overrides,
  };
}

describe('formatScheduleDetails', () => {
  it("says what an evaluation schedule runs: the dataset, the site and the run's settings", () => {
    const lines = formatScheduleDetails(details());
    expect(lines).toContain('  cron         0 2 * * * (UTC)');
    expect(lines).toContain('  runs         dataset /data/nightly.csv, site demo-site, concurrency 3, baseline latest, fail under 0.5');
    expect(lines).toContain('  next         2026-01-02T02:00:00.000Z');
  });

  it('a paused schedule has no next run, and says how to unpause it', () => {
    const lines = formatScheduleDetails(details({ id: 'watch-me', paused: true, nextRuns: [] }));
    expect(lines).toContain('  state        paused');
    expect(lines.filter((l) => l.startsWith('  next'))).toEqual(['  next         none while paused (npx sitechat schedule unpause watch-me)']);
  });
});
