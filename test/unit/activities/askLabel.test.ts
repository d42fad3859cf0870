import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import type { AskInput, AskResult } from '../../../activities/types';
import { labelKey, normalizeAnswerForLabel } from '../../../src/labels/key';
import type { Label } from '../../../src/domain/label';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { StoreUnavailableError } from '../../../src/store/errors';
import { DEMO } from '../../../src/sim';
import { useAskHarness } from './askHarness';

/** A file store whose label lookups fail with `error` while `failures` lasts. */
class LabelFaultStore extends FileResultsStore {
  failures = 0;
  error: Error = new Error('boom');
  lookups = 0;
  override async getLabels(keys: readonly string[]): Promise<Map<string, Label>> {
    this.lookups += 1;
    if (this.failures > 0) {
      this.failures -= 1;
      throw this.error;
    }
    return super.getLabels(keys);
  }
}

/** The ask activity looks the answer's label up once the answer is in (labels first), in the same activity. */
describe('ask: label lookup', () => {
  const h = useAskHarness('ask-label-');
  const lookup = { references: ['$9.99 per month'] };
  const input = (rowId: string): AskInput => ({ ...h.input(rowId, '5d1d3c6e-8a0f-4a4e-9d54-1b2f3e4d5c6a'), label: lookup });
  const freshStore = async (): Promise<LabelFaultStore> => {
    const store = new LabelFaultStore(mkdtempSync(join(h.dir(), 'store-')));
    await store.init('run-1', { runId: 'run-1', workflowId: 'w', kind: 'evaluation', dataset: 'd.csv', datasetSha256: 'abc', siteId: DEMO.siteId, startedAt: new Date().toISOString(), options: {} });
    return store;
  };
  const ask = async (store: LabelFaultStore, rowId: string): Promise<AskResult> => {
    const { activities, close } = createActivities(h.config(), { store });
    try {
      return await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(activities.ask, input(rowId));
    } finally {
      await close();
    }
  };

  it('returns the answer with its key, and the label of that key when a person gave one', async () => {
    const store = await freshStore();
    const first = await ask(store, 'r1');
    expect(first.status).toBe('completed');
    const subject = { siteId: DEMO.siteId, question: input('r1').message, ...lookup, answer: first.answer ?? '' };
    expect(first.labelKey).toBe(labelKey(subject));
    expect(first.label).toBeUndefined();

    const at = new Date().toISOString();
    await store.putLabels([{ key: first.labelKey as string, ...subject, answer: normalizeAnswerForLabel(subject.answer), verdict: 'fail', note: 'too vague', by: 'ana', at }]);
    const second = await ask(store, 'r2');
    // The simulator answers the same question the same way: the same key, now labelled; who, when and why go with it.
    expect(second.labelKey).toBe(first.labelKey);
    expect(second.label).toEqual({ key: first.labelKey, verdict: 'fail', note: 'too vague', by: 'ana', at });
  });

  it('a lookup that fails only loses the label (the question is never asked again); an outage is waited out', async () => {
    const store = await freshStore();
    const before = h.sim().stats().submitted;
    store.failures = 1;
    const lost = await ask(store, 'r3');
    expect(lost).toMatchObject({ status: 'completed', labelKey: expect.any(String) });
    expect(lost.label).toBeUndefined();
    expect(h.sim().stats().submitted - before).toBe(1);

    const subject = { siteId: DEMO.siteId, question: input('r3').message, ...lookup, answer: normalizeAnswerForLabel(lost.answer ?? '') };
    const at = new Date().toISOString();
    await store.putLabels([{ key: lost.labelKey as string, ...subject, verdict: 'pass', at }]);
    store.error = new StoreUnavailableError('results store (postgres://x@db/runs): connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    store.failures = 1;
    store.lookups = 0;
    const waited = await ask(store, 'r4');
    expect(store.lookups).toBe(2);
    expect(waited.label).toEqual({ key: lost.labelKey, verdict: 'pass', at });
    expect(h.sim().stats().submitted - before).toBe(2);
  });

  it('looks nothing up without the lookup in its input (backfills)', async () => {
    const store = await freshStore();
    const { activities, close } = createActivities(h.config(), { store });
    try {
      const result: AskResult = await new MockActivityEnvironment({ scheduledTimestampMs: Date.now(), attempt: 1 }).run(activities.ask, h.input('r5', '5d1d3c6e-8a0f-4a4e-9d54-1b2f3e4d5c6a'));
      expect(result.status).toBe('completed');
      expect(result.labelKey).toBeUndefined();
      expect(store.lookups).toBe(0);
    } finally {
      await close();
    }
  });
});
