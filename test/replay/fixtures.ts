import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { Worker, type ReplayWorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { INDEX_FILE, type HistoryFixture } from '../../scripts/histories/fixtureIndex';
import { historyFromJson } from '../../scripts/histories/historyJson';
import { RECORDING_PAYLOAD_KEYS } from '../../scripts/histories/scenarios';
import { dataConverterFor } from '../../src/codec/dataConverter';
import { parsePayloadKeys } from '../../src/codec/keys';

/** Where scripts/record-histories.ts writes its recordings. */
export const FIXTURES_DIR = join(__dirname, '..', 'fixtures', 'histories');

export interface ReplayOutcome {
  fixture: HistoryFixture;
  /** Set when the workflow code could not replay the history: a DeterminismViolationError, or a ReplayError. */
  error?: Error;
}

/** Every history file under the fixtures folder, as index paths (`<commit>/<scenario>/<name>.json`). */
export function fixtureFilesOnDisk(dir: string = FIXTURES_DIR): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json') && !(e.parentPath === dir && e.name === INDEX_FILE))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/**
 * The replay workers' payload codec: the `encrypted` scenario's test key, as a worker of that cluster would have it.
 * Clear histories (every other fixture) pass it unchanged, as they do on a worker that has keys set since.
 */
export const RECORDING_DATA_CONVERTER = dataConverterFor(parsePayloadKeys(RECORDING_PAYLOAD_KEYS));

/**
 * Replays each fixture's history with one replay worker running `workflowBundle`, and pairs every history with its
 * outcome. The worker replays histories one at a time, in the order given, so outcomes come back in that order.
 */
export async function replayFixtures(workflowBundle: WorkflowBundleWithSourceMap, fixtures: HistoryFixture[], dir: string = FIXTURES_DIR, sinks?: ReplayWorkerOptions['sinks'], dataConverter: DataConverter = RECORDING_DATA_CONVERTER): Promise<ReplayOutcome[]> {
  // Each history replays under its recorded workflow id: the run names its chunks after it, and core compares the
  // child workflow ids it starts with the recorded ones.
  const histories = fixtures.map((f) => ({ workflowId: f.workflowId, history: historyFromJson(JSON.parse(readFileSync(join(dir, f.file), 'utf8'))) }));
  const outcomes: ReplayOutcome[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle, replayName: 'sitechat-fixtures', dataConverter, ...(sinks ? { sinks } : {}) }, histories)) {
    const fixture = fixtures[outcomes.length];
    if (!fixture || fixture.workflowId !== result.workflowId) throw new Error(`replay results out of order at ${result.workflowId}`);
    outcomes.push({ fixture, error: result.error });
  }
  if (outcomes.length !== fixtures.length) throw new Error(`${fixtures.length} histories given, ${outcomes.length} replayed`);
  return outcomes;
}

/** `a58abb7/cleanup/sessionCleanup.run-2.json (sessionCleanup, recorded at a58abb7 on 2026-11-23): DeterminismViolationError: …` */
export function describeOutcome({ fixture, error }: ReplayOutcome): string {
  const where = `${fixture.file} (${fixture.workflowType}, recorded at ${fixture.commit.slice(0, 7)} on ${fixture.recordedAt.slice(0, 10)})`;
  return error ? `${where}: ${error.name}: ${error.message}` : `${where}: replays`;
}
