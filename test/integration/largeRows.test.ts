import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyText } from '../helpers/history';
import type { RunResult } from '../../src/domain/run';
import { readResults, startRun } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

/**
 * Rows stay out of workflow history: a RAG-context column of 42 KB on every row of a 100-row page (4 MB of metadata:
 * more than gRPC's 4 MiB message limit if a page carried it) and one row with 10 MB of metadata.
 */
describe('rows with large metadata columns (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('runs to the end; results and custom graders get the metadata, the history never holds it', async () => {
    const context = (i: number, size: number): string => `ctx${i}:${'x'.repeat(size)}`;
    const lines = Array.from({ length: 120 }, (_, i) => `r${i + 1},How much does the Personal plan cost?,$9.99,${context(i, i === 7 ? 10_000_000 : 42_000)}`);
    const dataset = join(stack.runsDir, 'large-rows.csv');
    writeFileSync(dataset, ['id,question,must_include,rag_context', ...lines].join('\n') + '\n');
    // A custom grader that reads the metadata: it must see the whole row.
    writeFileSync(join(stack.runsDir, 'context.mjs'), 'export function grade(row) { const n = (row.metadata.rag_context ?? "").length; return { pass: n > 40000, score: 1, reason: `context ${n} chars` }; }\n');

    const handle = await startRun(stack, dataset, { concurrency: 20, assertions: [{ type: 'custom', module: 'context.mjs' }] });
    const { summary, reportDir } = (await handle.result()) as RunResult;
    expect(summary.total).toBe(120);
    const results = readResults(reportDir);
    expect(summary.passed, JSON.stringify(results[0]?.assertions)).toBe(120);
    expect(results).toHaveLength(120);
    expect(results.find((r) => r.id === 'r8')?.metadata?.rag_context).toHaveLength(10_000_000 + 'ctx7:'.length);
    expect(results.find((r) => r.id === 'r1')?.assertions?.find((a) => a.type === 'custom')?.reason).toBe('context 42005 chars');

    // No event of the run or its chunks carries the metadata: every payload stays small.
    for (const id of [handle.workflowId, `${handle.workflowId}/chunk-0`, `${handle.workflowId}/chunk-1`]) {
      const history = await historyText(stack.client, id);
      if (id.includes('/chunk-')) expect(history).toContain('How much does the Personal plan cost?');
      expect(history.includes('x'.repeat(1000)), id).toBe(false);
    }
  });
});
