import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CollectedHistory } from '../../../scripts/histories/collect';
import { patchesIn, peakOpenChildren } from '../../../scripts/histories/collect';
import { fixtureName } from '../../../scripts/histories/fixtureFiles';
import { replaceRecordings, type HistoryFixture } from '../../../scripts/histories/fixtureIndex';
import { historyFromJson, historyToJson } from '../../../scripts/histories/historyJson';

const DIR = join(__dirname, '..', '..', 'fixtures', 'histories');
const read = (file: string): string => readFileSync(join(DIR, file), 'utf8');

describe('history fixture files', () => {
  it('a fixture read and written again is the same text: the codec keeps the proto3 JSON form', () => {
    const text = read('a58abb7/cleanup/sessionCleanup.run-2.json');
    const history = historyFromJson(JSON.parse(text));
    expect(history.events?.length).toBe(23);
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('sessionCleanup');
    expect(historyToJson(history)).toBe(text);
  });

  it('reads the older form whose enum values lack their prefix, as historyFromJSON does', () => {
    const json = JSON.parse(read('a58abb7/cleanup/sessionCleanup.run-2.json')) as { events: Record<string, unknown>[] };
    const started = json.events[0] as { eventType: string; workflowExecutionStartedEventAttributes: { taskQueue: { kind: string } } };
    started.eventType = 'WorkflowExecutionStarted';
    started.workflowExecutionStartedEventAttributes.taskQueue.kind = 'Normal';
    const history = historyFromJson(json);
    expect(historyToJson(history)).toBe(read('a58abb7/cleanup/sessionCleanup.run-2.json'));
  });

  it('refuses what is not a history, saying why', () => {
    expect(() => historyFromJson({ event: [] })).toThrow(/array `events`/);
    expect(() => historyFromJson({ events: [{ eventId: '1' }] })).toThrow(/without attributes/);
  });

  it('finds patch markers and the most children open at once', () => {
    const before = historyFromJson(JSON.parse(read('6e366e7/many-open-chunks/evaluationRun.json')));
    const after = historyFromJson(JSON.parse(read('a58abb7/many-open-chunks/evaluationRun.json')));
    expect(patchesIn(before)).toEqual([]);
    expect(patchesIn(after)).toEqual(['bounded-open-chunks']);
    expect(peakOpenChildren(before)).toBe(12);
    expect(peakOpenChildren(after)).toBe(8);
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
      file, scenario: file.split('/')[1] as string, workflowType: 'evaluationRun', workflowId: 'w', runId: 'r', events: 1, patches: [], commit: 'c', recordedAt: 't',
    });
    const index = { about: '', fixtures: [f('6e366e7/evaluation/evaluationRun.json'), f('a58abb7/evaluation/evaluationRun.json'), f('a58abb7/backfill/backfillRun.json')] };
    const next = replaceRecordings(index, 'a58abb7', ['evaluation'], [f('a58abb7/evaluation/runChunk.chunk-0.json')]);
    expect(next.fixtures.map((x) => x.file)).toEqual([
      '6e366e7/evaluation/evaluationRun.json', 'a58abb7/backfill/backfillRun.json', 'a58abb7/evaluation/runChunk.chunk-0.json',
    ]);
  });
});
