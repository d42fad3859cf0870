import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sim/constants';
import { WEAK_MODEL } from '../../src/sim/kb/models';
import { sha256File } from '../../src/datasets';
import type { RunInput, RunResult } from '../../src/domain/run';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { executeWorkflow } from '../../workflows/starts';
import { historyText } from '../helpers/history';
import { readResults } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

const DEMO_CSV = join(__dirname, '..', '..', 'datasets', 'demo.csv');

describe('evaluationRun on the demo dataset (real Temporal + simulator over HTTP)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  async function run(input: Partial<RunInput['options']> = {}, dataset?: string): Promise<{ result: RunResult; workflowId: string }> {
    const path = dataset ?? join(stack.runsDir, `dataset-${Date.now()}.csv`);
    if (!dataset) copyFileSync(DEMO_CSV, path);
    const runId = `t${Date.now()}`;
    const workflowId = `sitechat-evaluation-${runId}`;
    const result = await executeWorkflow(stack.client, 'evaluationRun', {
      taskQueue: TaskQueue.main,
      workflowId,
      args: [{
        kind: 'evaluation', runId, dataset: { path, sha256: await sha256File(path) },
        options: { siteId: DEMO.siteId, concurrency: 10, feedback: 'graded', answerTimeoutMs: 30_000, defaultEmail: 'qa@example.com', assertions: [], closeSessions: true, mode: 'async', ...input },
      } satisfies RunInput],
    });
    return { result, workflowId };
  }

  it('answers, grades, sends feedback for graded rows, closes every session once, and writes five reports', async () => {
    const before = await stack.sim.stats();
    const { result, workflowId } = await run();
    const s = result.summary;
    const rows = readResults(result.reportDir);
    // Every dataset row has exactly one result: the ids are the dataset's, each once, and none is missing.
    const datasetIds = (parse(readFileSync(DEMO_CSV), { columns: true }) as { id: string }[]).map((r) => r.id);
    expect(datasetIds.length).toBeGreaterThan(60);
    expect(s.total).toBe(datasetIds.length);
    expect(s.missing).toBe(0);
    expect(rows.map((r) => r.id).sort()).toEqual([...datasetIds].sort());
    expect(s.passed + s.failed + s.answered + s.error + s.timedOut + s.skipped).toBe(s.total);
    expect(s.passed).toBeGreaterThan(0);
    expect(s.failed).toBeGreaterThan(0);

    const stats = await stack.sim.stats();
    // One feedback call per graded row, and every session the run used closed.
    expect(stats.feedback - before.feedback).toBe(s.graded);
    expect(s.feedback.good).toBe(s.passed);
    expect(s.feedback.bad).toBe(s.failed);
    expect(stats.duplicateSubmissions).toBe(0);
    expect(s.sessions.closed).toBe(s.sessions.opened);

    // Multi-turn conversations share one session.
    const byConversation = new Map<string, Set<string | undefined>>();
    for (const r of rows.filter((r) => r.conversation)) {
      const set = byConversation.get(r.conversation as string) ?? new Set();
      set.add(r.sessionId);
      byConversation.set(r.conversation as string, set);
    }
    expect(byConversation.size).toBeGreaterThanOrEqual(5);
    for (const sessions of byConversation.values()) expect(sessions.size).toBe(1);

    for (const f of ['summary.json', 'results.jsonl', 'report.md', 'junit.xml', 'report.html']) {
      expect(existsSync(join(result.reportDir, f))).toBe(true);
    }

    // The API key is nowhere in the history or the reports.
    const history = await historyText(stack.client, workflowId);
    expect(history.includes(DEMO.siteId), 'decoded payloads are searched').toBe(true);
    expect(history.includes(DEMO.apiKey), 'API key in the run history').toBe(false);
    const chunk = await historyText(stack.client, `${workflowId}/chunk-0`);
    expect(chunk.includes('confidenceScore'), 'decoded chunk payloads are searched').toBe(true);
    expect(chunk.includes(DEMO.apiKey), 'API key in the chunk history').toBe(false);
    for (const f of ['summary.json', 'results.jsonl', 'report.md', 'junit.xml', 'report.html']) {
      expect(readFileSync(join(result.reportDir, f), 'utf8')).not.toContain(DEMO.apiKey);
    }
  });

  it('a weaker model regresses significantly against the named baseline and the gate fails, naming the rows; `latest` does not pick another model', async () => {
    const dataset = join(stack.runsDir, 'baseline-demo.csv');
    copyFileSync(DEMO_CSV, dataset);
    const good = await run({}, dataset);
    // No --fail-under and no baseline: nothing failed, but nothing judged the answers either.
    expect(good.result.summary.gate).toMatchObject({ verdict: 'no_threshold', passed: true });
    const latest = await run({ model: WEAK_MODEL, baseline: 'latest' }, dataset);
    expect(latest.result.summary.baseline).toBeUndefined();
    // The run of the first test has the same dataset sha256 and model as `good`: passed over the same way.
    expect(latest.result.summary.baselineSelection?.skipped).toContainEqual(
      { runId: good.result.runId, reason: `another model (the site default model; this run uses model ${WEAK_MODEL})` },
    );
    const weak = await run({ model: WEAK_MODEL, baseline: good.result.reportDir }, dataset);
    const cmp = weak.result.summary.baseline;
    expect(cmp?.runId).toBe(good.result.runId);
    expect(cmp?.regressed.length).toBeGreaterThan(5);
    expect(cmp?.mcnemar.significant).toBe(true);
    expect(weak.result.summary.gate?.verdict).toBe('failed');
    expect(weak.result.summary.gate?.reasons.join(' ')).toMatch(/significant regression/);
    expect(readFileSync(join(weak.result.reportDir, 'report.md'), 'utf8')).toContain(cmp?.regressed[0] as string);
  });
});
