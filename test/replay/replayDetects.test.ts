import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { readHistoryIndex } from '../../scripts/histories/fixtureIndex';
import { installQuietRuntime } from '../../src/temporal/sdkRuntime';
import { describeOutcome, FIXTURES_DIR, replayFixtures } from './fixtures';

const noop = (): void => undefined;
const quiet = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

/** The replay test can fail: a workflow changed without `patched()` does not replay its recorded histories. */
describe('replay detects an incompatible workflow change', () => {
  it.each(['sessionCleanup', 'evaluationRun'])('%s changed to start with a timer: fails on its smallest recorded history, naming the fixture', async (type) => {
    installQuietRuntime();
    const fixture = readHistoryIndex(FIXTURES_DIR).fixtures.filter((f) => f.workflowType === type).sort((a, b) => a.events - b.events)[0];
    expect(fixture, `a recorded ${type} history`).toBeDefined();
    if (!fixture) return;
    const bundle = await bundleWorkflowCode({ workflowsPath: join(__dirname, 'incompatibleWorkflows.ts'), logger: quiet });
    const [outcome] = await replayFixtures(bundle, [fixture]);
    expect(outcome?.error).toBeInstanceOf(DeterminismViolationError);
    expect(describeOutcome(outcome as NonNullable<typeof outcome>)).toMatch(new RegExp(`^${fixture.file.replace(/[.]/g, '\\.')} \\(${type}, recorded at [0-9a-f]{7} .*\\): DeterminismViolationError: `));
  });
});
