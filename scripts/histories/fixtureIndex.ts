/**
 * The index of recorded workflow histories (`test/fixtures/histories/index.json`): which file holds which workflow's
 * history, recorded from which commit and when. `scripts/record-histories.ts` writes it; the replay test reads it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const INDEX_FILE = 'index.json';

export interface HistoryFixture {
  /** `<commit>/<scenario>/<name>.json` under the fixtures folder, always with `/`. */
  file: string;
  /** The recording scenario that produced it (scripts/histories/scenarios.ts). */
  scenario: string;
  workflowType: string;
  /**
   * The recorded workflow id. Replay must use it: the run derives its children's ids from it, and the replayed
   * commands are compared with the recorded ones.
   */
  workflowId: string;
  runId: string;
  events: number;
  /** Ids of the `patched()` markers in the history: the code paths it took. */
  patches: string[];
  /** Full hash of the commit whose workflow code ran; `-dirty` when workflows/ or activities/ had uncommitted changes. */
  commit: string;
  /** `package.json`'s version at that commit: the fixtures of a released version stay (CONTRIBUTING.md). */
  version: string;
  /** ISO 8601. */
  recordedAt: string;
  /** Why this recording exists, when said with `--note`. */
  note?: string;
}

export interface HistoryIndex {
  about: string;
  fixtures: HistoryFixture[];
}

const ABOUT =
  'Workflow histories recorded by scripts/record-histories.ts, replayed against the current workflow code by ' +
  'test/replay/replayHistories.test.ts. Keep old recordings: they are the runs still open in clusters, and those of ' +
  'every released version stay.';

/** The index in `dir`, or an empty one when there is none yet. */
export function readHistoryIndex(dir: string): HistoryIndex {
  const path = join(dir, INDEX_FILE);
  if (!existsSync(path)) return { about: ABOUT, fixtures: [] };
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<HistoryIndex>;
  if (!Array.isArray(parsed.fixtures)) throw new Error(`${path}: \`fixtures\` must be an array`);
  return { about: ABOUT, fixtures: parsed.fixtures };
}

/**
 * The index with the recordings of `scenarios` in folder `commitDir` replaced by `added`; every other recording
 * stays (an old recording is what proves old runs still replay).
 */
export function replaceRecordings(index: HistoryIndex, commitDir: string, scenarios: readonly string[], added: HistoryFixture[]): HistoryIndex {
  const replaced = (f: HistoryFixture): boolean => scenarios.some((s) => f.file.startsWith(`${commitDir}/${s}/`));
  const fixtures = [...index.fixtures.filter((f) => !replaced(f)), ...added].sort((a, b) => a.file.localeCompare(b.file));
  return { about: ABOUT, fixtures };
}

/** The versions CHANGELOG.md says were released (`## [1.0.0] - 2026-11-28` headings; not `[Unreleased]`). */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}\s*$/gmu)].map((m) => m[1] as string);
}

export function writeHistoryIndex(dir: string, index: HistoryIndex): void {
  writeFileSync(join(dir, INDEX_FILE), `${JSON.stringify(index, null, 2)}\n`);
}
