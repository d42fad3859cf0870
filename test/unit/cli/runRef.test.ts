import { describe, expect, it } from 'vitest';
import { checkRunRef, workflowIdCandidates } from '../../../src/cli/runRef';
import { UsageError } from '../../../src/cli/usageError';
import { runIdOf } from '../../../src/schedules';

describe('what watch and cancel accept', () => {
  it('takes a workflow id as schedule trigger prints it (colons and all), and refuses paths', () => {
    expect(() => checkRunRef('sitechat-evaluation-nightly-demo-site-demo-2026-11-23T17:05:11Z', '<run>')).not.toThrow();
    expect(() => checkRunRef('20261122-0412-5f3a9c', '<run>')).not.toThrow();
    for (const bad of ['a/b', '../x', '', '-x', 'a b']) expect(() => checkRunRef(bad, '<run>')).toThrow(UsageError);
  });

  it('maps a scheduled run id back to its workflow id, and a workflow id to itself', () => {
    const workflowId = 'sitechat-evaluation-nightly-demo-site-demo-2026-11-23T17:05:11Z';
    const runId = runIdOf(workflowId);
    expect(runId).toBe('nightly-demo-site-demo-2026-11-23T170511Z');
    expect(workflowIdCandidates(runId)).toContain(workflowId);
    expect(workflowIdCandidates(workflowId)).toEqual([workflowId]);
    // A site's run of a scheduled multi-site run: `<runId>-<site>`, workflow `<workflowId>-<site>`.
    expect(workflowIdCandidates(`${runId}-shop-de`)).toContain(`${workflowId}-shop-de`);
    expect(workflowIdCandidates('20261122-0412-5f3a9c')).toEqual([
      'sitechat-evaluation-20261122-0412-5f3a9c', 'sitechat-backfill-20261122-0412-5f3a9c', 'sitechat-cleanup-20261122-0412-5f3a9c',
    ]);
  });
});
