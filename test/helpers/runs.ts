import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { sha256File } from '../../src/datasets';
import { DEMO } from '../../src/sim/constants';
import { TaskQueue } from '../../src/temporal/taskQueues';
import { startWorkflow, type Workflows } from '../../workflows/starts';
import type { RowResult } from '../../src/domain/results';
import type { RunInput, RunKind, RunOptions } from '../../src/domain/run';
import type { Stack } from './stack';

let seq = 0;

/** Writes a small CSV into the stack's runs directory and returns its path. */
export function writeDataset(stack: Stack, header: string, rows: string[]): string {
  const path = join(stack.runsDir, `dataset-${process.pid}-${++seq}.csv`);
  writeFileSync(path, [header, ...rows].join('\n') + '\n');
  return path;
}

/** Demo knowledge-base questions with the phrase each answer must include, as `question,must_include` CSV. */
export const DEMO_QUESTIONS = [
  'How much does the Personal plan cost?,$9.99',
  'How much storage do I get for free?,5 GB',
  'Can I get a refund for my annual subscription?,14 days',
  'Which payment methods do you accept?,PayPal',
  'How do I reset my password?,Forgot password',
];

/** The header of {@link demoRows}. */
export const DEMO_HEADER = 'id,conversation,turn,question,must_include';

/** `n` single-turn rows `r1…rn` cycling through `questions`. */
export function demoRows(n: number, questions: readonly string[] = DEMO_QUESTIONS): string[] {
  return Array.from({ length: n }, (_, i) => `r${i + 1},,,${questions[i % questions.length]}`);
}

export const defaultOptions: RunOptions = {
  siteId: DEMO.siteId, concurrency: 10, feedback: 'graded', answerTimeoutMs: 30_000, defaultEmail: 'qa@example.com',
  assertions: [], closeSessions: true, mode: 'async',
};

/** Starts a run workflow the way the CLI does (pinned sha256, references only). */
export async function startRun(stack: Stack, dataset: string, options: Partial<RunOptions> = {}, kind: RunKind = 'evaluation', runId = `t${Date.now()}-${++seq}`): Promise<WorkflowHandleWithFirstExecutionRunId<Workflows['evaluationRun' | 'backfillRun']>> {
  const input: RunInput = { kind, runId, dataset: { path: dataset, sha256: await sha256File(dataset) }, options: { ...defaultOptions, ...options } };
  return startWorkflow(stack.client, kind === 'evaluation' ? 'evaluationRun' : 'backfillRun', {
    taskQueue: TaskQueue.main, workflowId: `sitechat-${kind}-${runId}`, args: [input],
  });
}

export function readResults(dir: string): RowResult[] {
  return readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as RowResult);
}
