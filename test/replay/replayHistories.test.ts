import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { readHistoryIndex, releasedVersions } from '../../scripts/histories/fixtureIndex';
import { installQuietRuntime } from '../../src/temporal/sdkRuntime';
import { bundleWorkflows, workflowsPath } from '../../src/worker/worker';
import * as workflows from '../../workflows';
import { describeOutcome, FIXTURES_DIR, fixtureFilesOnDisk, replayFixtures, type ReplayOutcome } from './fixtures';

const index = readHistoryIndex(FIXTURES_DIR);

/** Every `patched('id')` in the workflow sources, with the files that call it. */
function patchIdsInWorkflows(): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  const dir = workflowsPath();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    for (const [, id] of readFileSync(join(dir, file), 'utf8').matchAll(/\bpatched\(\s*['"`]([^'"`]+)['"`]\s*\)/g)) {
      ids.set(id as string, [...(ids.get(id as string) ?? []), file]);
    }
  }
  return ids;
}

/**
 * Workflows running in a cluster replay their history on whichever worker picks them up next: a change that makes
 * the code issue other commands than the recorded ones fails them there. Every recorded history is replayed here
 * against the workflow code as it is now (bundled from the sources, as a worker would).
 */
describe('recorded workflow histories replay against the current workflow code', () => {
  let outcomes: ReplayOutcome[] = [];
  let bundle: WorkflowBundleWithSourceMap;

  beforeAll(async () => {
    installQuietRuntime();
    bundle = await bundleWorkflows();
    outcomes = await replayFixtures(bundle, index.fixtures);
  });

  it.each(index.fixtures.map((f) => [f.file]))('%s', (file) => {
    const outcome = outcomes.find((o) => o.fixture.file === file);
    expect(outcome, `${file} was not replayed`).toBeDefined();
    expect(outcome?.error, describeOutcome(outcome as ReplayOutcome)).toBeUndefined();
  });

  it('every history file is in the index, and every workflow type has a recorded history', () => {
    expect(fixtureFilesOnDisk()).toEqual(index.fixtures.map((f) => f.file).sort());
    const recorded = new Set(index.fixtures.map((f) => f.workflowType));
    const missing = Object.keys(workflows).filter((type) => !recorded.has(type));
    expect(missing, 'workflow types without a recorded history: record one with `npm run record-histories`').toEqual([]);
  });

  it('every released version (CHANGELOG.md) has a recorded history of every workflow type', () => {
    const released = releasedVersions(readFileSync(join(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8'));
    expect(released, 'released versions in CHANGELOG.md').toContain('1.0.0');
    for (const version of released) {
      const recorded = new Set(index.fixtures.filter((f) => f.version === version).map((f) => f.workflowType));
      const missing = Object.keys(workflows).filter((type) => !recorded.has(type));
      expect(missing, `${version}: workflow types without a history recorded at that version (record every scenario at a release; never delete a released version's fixtures)`).toEqual([]);
    }
  });

  it('every patched() id has a history that takes its new path and one from before it', () => {
    for (const [id, files] of patchIdsInWorkflows()) {
      const withMarker = index.fixtures.filter((f) => f.patches.includes(id));
      expect(withMarker.length, `patched('${id}') (${files.join(', ')}): no recorded history takes the new path; record one`).toBeGreaterThan(0);
      const types = new Set(withMarker.map((f) => f.workflowType));
      const before = index.fixtures.filter((f) => types.has(f.workflowType) && !f.patches.includes(id));
      expect(before.length, `patched('${id}'): no ${[...types].join('/')} history from before it; keep (or record with --at) one`).toBeGreaterThan(0);
    }
  });
});
