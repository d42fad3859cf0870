import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { startWorkflow } from '../../workflows/starts';
import type { RunInput, RunResult } from '../../src/domain/run';
import { defaultOptions, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

const QUESTIONS = [
  'How much does the Personal plan cost?',
  'How much storage do I get for free?',
  'Can I get a refund for my annual subscription?',
  'Which payment methods do you accept?',
];

describe('backfillRun (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  function dataset(n: number): string {
    return writeDataset(stack, 'id,email,question', Array.from({ length: n }, (_, i) => `b${i + 1},user${i % 3}@example.com,${QUESTIONS[i % 4]}`));
  }

  it('records every answer with its ids in dataset order, no grading, no feedback, sessions kept open when asked', async () => {
    const outFile = join(stack.runsDir, 'answers.csv');
    const handle = await startRun(stack, dataset(12), { outFile, closeSessions: false, feedback: 'none' }, 'backfill');
    const result = (await handle.result()) as RunResult;
    expect(result.summary.answered).toBe(12);
    expect(result.outputFile).toBe(outFile);
    const rows = parse(readFileSync(outFile), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 12 }, (_, i) => `b${i + 1}`));
    for (const r of rows) {
      expect(r.outcome).toBe('answered');
      expect(r.answer).not.toBe('');
      expect(r.request_id).toMatch(/[0-9a-f-]{36}/);
      expect(r.session_id).not.toBe('');
    }
    expect(rows[1]?.email).toBe('user1@example.com');
    const stats = stack.sim.stats();
    expect(stats.feedback).toBe(0);
    expect(stats.sessions.closed).toBe(0);
  });

  it('--mode sync: a request that outlives the sync ceiling is looked up by the request id the server named', async () => {
    // The simulator's sync ceiling is 60 s × latencyScale (0.6 s here); these answers take longer.
    stack.sim.setFaults({ 'chat.sync': { processingDelayMs: 1500 } });
    const outFile = join(stack.runsDir, 'sync.jsonl');
    const handle = await startRun(stack, dataset(3), { outFile, mode: 'sync', feedback: 'none' }, 'backfill');
    const result = (await handle.result()) as RunResult;
    expect(result.summary.answered).toBe(3);
    const stats = stack.sim.stats();
    expect(stats.submittedByMode.sync).toBe(3);
    expect(stats.duplicateSubmissions).toBe(0);
    const lines = readFileSync(outFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { answer?: string });
    for (const l of lines) expect(l.answer).toBeTruthy();
  });

  it('--resume never re-sends a row that already has an answer', async () => {
    stack.sim.setFaults({ 'chat.async': { asyncFailRate: 0.5 } });
    const path = dataset(20);
    const runId = `resume-${Date.now()}`;
    // Failed requests are not re-asked here: the rows they leave without an answer are what the resume is for.
    const first = (await (await startRun(stack, path, { feedback: 'none', reaskFailed: 0 }, 'backfill', runId)).result()) as RunResult;
    expect(first.summary.error).toBeGreaterThan(0);
    expect(first.summary.answered + first.summary.error).toBe(20);
    const sentBefore = stack.sim.stats().submitted;

    stack.sim.setFaults({});
    // The same run id again, as `sitechat backfill --resume <runId>` starts it.
    const input: RunInput = { kind: 'backfill', runId, resume: true, dataset: { path, sha256: first.summary.datasetSha256 }, options: { ...defaultOptions, feedback: 'none' } };
    const handle = await startWorkflow(stack.client, 'backfillRun', { taskQueue: TaskQueue.main, workflowId: `sitechat-backfill-${runId}`, args: [input] });
    const second = (await handle.result()) as RunResult;
    expect(second.summary.answered).toBe(20);
    expect(second.summary.total).toBe(20);
    // Only the rows that had no answer were sent again.
    expect(stack.sim.stats().submitted - sentBefore).toBe(first.summary.error);
  });
});
