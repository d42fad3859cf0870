import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import { beforeAll, describe, expect, it } from 'vitest';
import { readHistoryIndex } from '../../scripts/histories/fixtureIndex';
import { installQuietRuntime } from '../../src/temporal/sdkRuntime';
import { bundleWorkflows } from '../../src/worker/worker';
import { describeOutcome, FIXTURES_DIR, replayFixtures, type ReplayOutcome } from './fixtures';

const index = readHistoryIndex(FIXTURES_DIR);

/**
 * A traced worker runs the workflows with the OpenTelemetry workflow interceptors (the traced bundle). They only add
 * headers and spans; if they issued other commands, a run recorded on an untraced worker would fail on a traced one
 * (and back). Every recorded history (all from untraced workers) replays through the traced bundle here.
 */
describe('recorded workflow histories replay through the traced workflow bundle', () => {
  let outcomes: ReplayOutcome[] = [];

  beforeAll(async () => {
    installQuietRuntime();
    const bundle = await bundleWorkflows({ traced: true });
    const sinks = { exporter: makeWorkflowExporter(new SimpleSpanProcessor(new InMemorySpanExporter()), new Resource({})) };
    outcomes = await replayFixtures(bundle, index.fixtures, FIXTURES_DIR, sinks);
  });

  it.each(index.fixtures.map((f) => [f.file]))('%s', (file) => {
    const outcome = outcomes.find((o) => o.fixture.file === file);
    expect(outcome, `${file} was not replayed`).toBeDefined();
    expect(outcome?.error, describeOutcome(outcome as ReplayOutcome)).toBeUndefined();
  });
});
