import { sleep } from '@temporalio/workflow';
import { runDataset } from '../../workflows/run';
import type { RunInput, RunResult } from '../../src/domain/run';

/**
 * Workflows changed without `patched()`, bundled by replayDetects.test.ts only. Each now waits before its first
 * command, so that command is a timer where every recorded history of its type has an activity: a cleanup's first
 * list, a run's `prepareRun`.
 */
export async function sessionCleanup(): Promise<void> {
  await sleep('1 second');
}

export async function evaluationRun(input: RunInput): Promise<RunResult> {
  await sleep('1 second');
  return runDataset({ ...input, kind: 'evaluation' });
}
