import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CollectedHistory } from '../../../scripts/histories/collect';
import { patchesIn, peakOpenChildren } from '../../../scripts/histories/collect';
import { fixtureName } from '../../../scripts/histories/fixtureFiles';
import { readHistoryIndex, releasedVersions, replaceRecordings, type HistoryFixture } from '../../../scripts/histories/fixtureIndex';
import { historyFromJson, historyToJson } from '../../../scripts/histories/historyJson';

const DIR = join(__dirname, '..', '..', 'fixtures', 'histories');
const read = (file: string): string => readFileSync(join(DIR, file), 'utf8');
/** The recorded cleanup's second run: a short history. */
const cleanupRun2 = readHistoryIndex(DIR).fixtures.find((f) => f.scenario === 'cleanup' && f.file.endsWith('.run-2.json')) as HistoryFixture;

/** A history of `events` in the proto3 JSON form fixtures have, numbered from 1. */
function historyOf(events: Record<string, unknown>[]): ReturnType<typeof historyFromJson> {
  return historyFromJson({ events: events.map((e, i) => ({ eventId: String(i + 1), eventTime: '2026-11-28T04:38:16Z', ...e })) });
}

/** A `patched(id)` marker as the SDK's core records it (copied from a recorded history, the id replaced). */
function patchMarker(id: string): Record<string, unknown> {
  const data = Buffer.from(JSON.stringify({ id, deprecated: false })).toString('base64');
  return {
    eventType: 'EVENT_TYPE_MARKER_RECORDED',
    markerRecordedEventAttributes: {
      markerName: 'core_patch', details: { 'patch-data': { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data }] } }, workflowTaskCompletedEventId: '1',
    },
  };
}

const childStarted = (workflowId: string): Record<string, unknown> => ({
  eventType: 'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED',
  startChildWorkflowExecutionInitiatedEventAttributes: { workflowId, workflowType: { name: 'runChunk' } },
});
const childCompleted = (workflowId: string): Record<string, unknown> => ({
  eventType: 'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED',
  childWorkflowExecutionCompletedEventAttributes: { workflowExecution: { workflowId }, workflowType: { name: 'runChunk' } },
});

describe('history fixture files', () => {
  it('a fixture read and written again is the same text: the codec keeps the proto3 JSON form', () => {
    const text = read(cleanupRun2.file);
    const history = historyFromJson(JSON.parse(text));
    expect(history.events?.length).toBe(cleanupRun2.events);
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('sessionCleanup');
    expect(historyToJson(history)).toBe(text);
  });

  it('reads the older form whose enum values lack their prefix, as historyFromJSON does', () => {
    const json = JSON.parse(read(cleanupRun2.file)) as { events: Record<string, unknown>[] };
    const started = json.events[0] as { eventType: string; workflowExecutionStartedEventAttributes: { taskQueue: { kind: string } } };
    started.eventType = 'WorkflowExecutionStarted';
    started.workflowExecutionStartedEventAttributes.taskQueue.kind = 'Normal';
    const history = historyFromJson(json);
    expect(historyToJson(history)).toBe(read(cleanupRun2.file));
  });

  it('refuses what is not a history, saying why', () => {
    expect(() => historyFromJson({ event: [] })).toThrow(/array `events`/);
    expect(() => historyFromJson({ events: [{ eventId: '1' }] })).toThrow(/without attributes/);
  });

  it('finds patch markers and the most children open at once', () => {
    expect(patchesIn(historyOf([childStarted('c0')]))).toEqual([]);
    expect(patchesIn(historyOf([patchMarker('first-change'), childStarted('c0'), patchMarker('second-change')]))).toEqual(['first-change', 'second-change']);
    const overlapping = historyOf([childStarted('c0'), childStarted('c1'), childCompleted('c0'), childStarted('c2'), childStarted('c3'), childCompleted('c1')]);
    expect(peakOpenChildren(overlapping)).toBe(3);
    expect(peakOpenChildren(historyOf([childStarted('c0'), childCompleted('c0'), childStarted('c1'), childCompleted('c1')]))).toBe(1);
  });

  it('names files by workflow type, what the id adds to the root id, and the place in a continue-as-new chain', () => {
    const h = (workflowType: string, workflowId: string, run = 1, runs = 1): CollectedHistory => ({ workflowType, workflowId, runId: 'r', run, runs, history: {} });
    const root = 'sitechat-evaluation-rec-multi-site';
    expect(fixtureName(h('multiSiteRun', root), root)).toBe('multiSiteRun.json');
    expect(fixtureName(h('evaluationRun', `${root}-demo-site-2`), root)).toBe('evaluationRun.demo-site-2.json');
    expect(fixtureName(h('runChunk', `${root}-demo-site-2/chunk-0`), root)).toBe('runChunk.demo-site-2.chunk-0.json');
    expect(fixtureName(h('sessionCleanup', 'sitechat-cleanup-rec-cleanup', 2, 2), 'sitechat-cleanup-rec-cleanup')).toBe('sessionCleanup.run-2.json');
  });

  it('a re-recording replaces its own commit and scenarios only', () => {
    const f = (file: string): HistoryFixture => ({
      file, scenario: file.split('/')[1] as string, workflowType: 'evaluationRun', workflowId: 'w', runId: 'r', events: 1, patches: [], commit: 'c', version: '1.0.0', recordedAt: 't',
    });
    const index = { about: '', fixtures: [f('6e366e7/evaluation/evaluationRun.json'), f('a58abb7/evaluation/evaluationRun.json'), f('a58abb7/backfill/backfillRun.json')] };
    const next = replaceRecordings(index, 'a58abb7', ['evaluation'], [f('a58abb7/evaluation/runChunk.chunk-0.json')]);
    expect(next.fixtures.map((x) => x.file)).toEqual([
      '6e366e7/evaluation/evaluationRun.json', 'a58abb7/backfill/backfillRun.json', 'a58abb7/evaluation/runChunk.chunk-0.json',
    ]);
  });

  it('reads the released versions from the changelog: dated version headings, not Unreleased', () => {
    const changelog = '# Changelog\n\n## [Unreleased]\n\n## [1.1.0] - 2027-01-05\n\ntext ## [9.9.9] - 2027-01-01\n\n## [1.0.0] - 2026-11-28\n\n## 0.1.0 and before\n';
    expect(releasedVersions(changelog)).toEqual(['1.1.0', '1.0.0']);
  });
});
