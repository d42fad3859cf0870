import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JudgeCache, judgeCached, judgeCacheKey } from '../../../../src/grading/judge/cache';
import type { Judge, JudgeRequest } from '../../../../src/grading/judge/types';

const request: JudgeRequest = { kind: 'rubric', question: 'q', answer: 'a', rubric: 'r' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'judge-cache-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

function countingJudge(model = 'm'): Judge & { calls: number } {
  const judge = {
    model,
    calls: 0,
    judge: () => {
      judge.calls++;
      return Promise.resolve({ verdict: 'pass' as const, reason: 'fine', tokens: 42 });
    },
  };
  return judge;
}

describe('JudgeCache', () => {
  it('stores a verdict under <runsDir>/.judge-cache and returns it for the same model and inputs only', async () => {
    const cache = JudgeCache.inRunsDir(dir);
    expect(await cache.get('m', request)).toBeUndefined();
    await cache.set('m', request, { verdict: 'fail', reason: 'no', tokens: 7 });
    expect(await cache.get('m', request)).toEqual({ verdict: 'fail', reason: 'no', tokens: 7 });
    expect(await cache.get('other-model', request)).toBeUndefined();
    expect(await cache.get('m', { ...request, answer: 'b' })).toBeUndefined();
    const key = judgeCacheKey('m', request);
    expect(await readdir(join(dir, '.judge-cache', key.slice(0, 2)))).toEqual([`${key}.json`]);
  });

  it('treats a torn or foreign entry as a miss', async () => {
    const cache = JudgeCache.inRunsDir(dir);
    await cache.set('m', request, { verdict: 'pass', reason: 'ok', tokens: 1 });
    const key = judgeCacheKey('m', request);
    const file = join(dir, '.judge-cache', key.slice(0, 2), `${key}.json`);
    await writeFile(file, '{"verdict":"pa');
    expect(await cache.get('m', request)).toBeUndefined();
    await writeFile(file, '{"verdict":"maybe","reason":"x","tokens":1}');
    expect(await cache.get('m', request)).toBeUndefined();
  });

  it('judgeCached calls the judge once, then serves the cache without a call', async () => {
    const cache = JudgeCache.inRunsDir(dir);
    const judge = countingJudge();
    expect(await judgeCached(judge, cache, request)).toEqual({ verdict: 'pass', reason: 'fine', tokens: 42, model: 'm', cached: false });
    expect(await judgeCached(judge, cache, request)).toEqual({ verdict: 'pass', reason: 'fine', tokens: 42, model: 'm', cached: true });
    expect(judge.calls).toBe(1);
    await judgeCached(countingJudge('new-model'), cache, request);
    expect(judge.calls).toBe(1);
  });
});
