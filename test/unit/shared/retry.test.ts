import { describe, expect, it } from 'vitest';
import { doubling, retry, type RetryRules } from '../../../src/shared/retry';

/** Rules with a sleep that only records what it was asked to wait. */
function rules(overrides: Partial<RetryRules> = {}): RetryRules & { waits: number[]; before: string[] } {
  const waits: number[] = [];
  const before: string[] = [];
  return {
    waits,
    before,
    retryable: (_err, attempt) => attempt < 4,
    delayMs: (_err, attempt) => doubling(1000, attempt),
    sleep: async (ms) => void waits.push(ms),
    beforeWait: (err, attempt, ms) => void before.push(`${(err as Error).message}@${attempt}:${ms}`),
    ...overrides,
  };
}

/** Fails the first `failures` attempts with "fail <n>", then returns the attempt number. */
function failing(failures: number): (n: number) => Promise<number> {
  return async (n) => {
    if (n <= failures) throw new Error(`fail ${n}`);
    return n;
  };
}

describe('retry: one loop, the caller\'s rules', () => {
  it('waits as the rules say between attempts, tells before each wait, and returns the first success', async () => {
    const r = rules();
    await expect(retry(failing(2), r)).resolves.toBe(3);
    expect(r.waits).toEqual([1000, 2000]);
    expect(r.before).toEqual(['fail 1@1:1000', 'fail 2@2:2000']);
  });

  it('throws the failure the rules call final, after the waits before it, and never waits after it', async () => {
    const r = rules();
    await expect(retry(failing(10), r)).rejects.toThrow('fail 4');
    expect(r.waits).toEqual([1000, 2000, 4000]);
  });

  it('a failure that may not be tried again is thrown at once', async () => {
    const r = rules({ retryable: (err) => !(err instanceof TypeError) });
    await expect(retry(async () => { throw new TypeError('bad'); }, r)).rejects.toThrow(TypeError);
    expect(r.waits).toEqual([]);
  });

  it('a sleep that throws (a cancelled activity) ends the loop with its error', async () => {
    const r = rules({ sleep: async () => { throw new Error('cancelled'); } });
    await expect(retry(failing(1), r)).rejects.toThrow('cancelled');
  });

  it('the delay may depend on the error (a Retry-After) and on state the rules keep', async () => {
    const r = rules({ delayMs: (err, attempt) => Math.max(doubling(100, attempt, 300), (err as Error).message === 'fail 2' ? 5000 : 0) });
    await expect(retry(failing(3), r)).resolves.toBe(4);
    expect(r.waits).toEqual([100, 5000, 300]);
  });
});

describe('doubling', () => {
  it('starts at the initial delay, doubles per attempt, and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((a) => doubling(250, a, 5000))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    expect(doubling(1000, 10)).toBe(512_000);
  });
});
