import type { NotificationMessage } from '../../../src/notify/message';

/** A message with every part present, texts as long and hostile as user data gets. */
export function fullMessage(overrides: Partial<NotificationMessage> = {}): NotificationMessage {
  const long = 'word '.repeat(2000);
  return {
    event: 'run', trigger: 'failed', verdict: 'failed', title: `sitechat run 20261122-0412-5f3a9c: FAILED on site help-center ${long}`,
    reasons: Array.from({ length: 20 }, (_, i) => `reason ${i}: pass rate below <fail-under> & more ${long}`), warnings: ['a warning'],
    runId: '20261122-0412-5f3a9c', workflowId: 'sitechat-evaluation-20261122-0412-5f3a9c', sites: ['help-center'], model: null,
    dataset: { path: '/data/questions.csv', sha256: 'a'.repeat(64) }, passRate: 0.8,
    baseline: { runId: 'base', passRate: 0.9, delta: -0.1, regressed: 12, fixed: 1 },
    counts: { passed: 8, failed: 2, error: 1 },
    regressed: Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, question: `<@channel> question ${i}?`, before: 'x'.repeat(300), now: `now ${i} <!here>` })),
    regressedTotal: 12, errors: [{ type: 'ServerError', count: 3, example: 'HTTP 503 (row q9)' }],
    reportUrl: 'https://reports.example.com/20261122-0412-5f3a9c/report.html', startedAt: '2026-11-22T02:00:00Z', finishedAt: '2026-11-22T02:10:00Z',
    ...overrides,
  };
}
