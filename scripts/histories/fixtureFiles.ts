/** Writes recorded histories as fixture files (`<commit>/<scenario>/<name>.json`) and updates the index. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { patchesIn, type CollectedHistory } from './collect';
import { historyToJson } from './historyJson';
import { readHistoryIndex, replaceRecordings, writeHistoryIndex, type HistoryFixture } from './fixtureIndex';
import type { RecordedCommit } from './git';
import type { RecordedScenario } from './recorder';

/**
 * `evaluationRun.json`, `runChunk.chunk-0.json`, `evaluationRun.demo-site-2.json`, `sessionCleanup.run-2.json`: the
 * workflow type, then what its id adds to the scenario's root id, then its place in a continue-as-new chain.
 */
export function fixtureName(h: CollectedHistory, rootWorkflowId: string): string {
  const rest = h.workflowId.startsWith(rootWorkflowId) ? h.workflowId.slice(rootWorkflowId.length) : h.workflowId;
  const suffix = rest.replace(/[^A-Za-z0-9-]+/g, '.').replace(/^[.-]+|[.-]+$/g, '');
  return `${[h.workflowType, suffix, h.runs > 1 ? `run-${h.run}` : ''].filter(Boolean).join('.')}.json`;
}

/**
 * Replaces this commit's recordings of the given scenarios (files and index entries); recordings of other commits
 * and scenarios stay. Returns what was written.
 */
export function writeRecordings(out: string, at: RecordedCommit, recorded: RecordedScenario[], note: string | undefined): HistoryFixture[] {
  const recordedAt = new Date().toISOString();
  const added: HistoryFixture[] = [];
  for (const { scenario, rootWorkflowId, histories } of recorded) {
    const folder = join(out, at.dir, scenario.name);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    for (const h of histories) {
      const name = fixtureName(h, rootWorkflowId);
      writeFileSync(join(folder, name), historyToJson(h.history));
      added.push({
        file: `${at.dir}/${scenario.name}/${name}`, scenario: scenario.name, workflowType: h.workflowType, workflowId: h.workflowId,
        runId: h.runId, events: h.history.events?.length ?? 0, patches: patchesIn(h.history), commit: at.commit, version: at.version, recordedAt,
        ...(note ? { note } : {}),
      });
    }
  }
  const index = replaceRecordings(readHistoryIndex(out), at.dir, recorded.map((r) => r.scenario.name), added);
  writeHistoryIndex(out, index);
  return added;
}
