import { afterEach, describe, expect, it, vi } from 'vitest';
import { Batcher } from '../../../workflows/batcher';

/** A batcher whose flushes the test ends by hand, recording each batch. */
function batcher(size: number) {
  const batches: number[][] = [];
  const ends: (() => void)[] = [];
  const b = new Batcher<number>(size, { maxMs: 1000, idleBatch: 2 }, (batch) => {
    batches.push(batch);
    return new Promise<void>((resolve) => ends.push(resolve));
  });
  const endNext = async (): Promise<void> => {
    ends.shift()?.();
    // The flush's `finally`, where a held batch may go next.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { b, batches, endNext };
}

describe('Batcher (the chunk\'s settles)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first item at once, then what was held once no flush runs and it makes two items', async () => {
    const { b, batches, endNext } = batcher(10);
    b.add(1);
    expect(batches).toEqual([[1]]);
    b.add(2);
    b.add(3);
    expect(batches).toHaveLength(1);
    await endNext();
    expect(batches).toEqual([[1], [2, 3]]);
    // A lone item waits for a partner while nothing runs …
    await endNext();
    b.add(4);
    expect(batches).toHaveLength(2);
    b.add(5);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('sends what is held once its oldest item has waited the longest hold (looked at when the next item comes), a flush running or not', () => {
    vi.useFakeTimers();
    const { b, batches } = batcher(10);
    // The first flush stays running throughout: only the hold sends the next batch.
    b.add(1);
    b.add(2);
    vi.advanceTimersByTime(999);
    b.add(3);
    expect(batches).toEqual([[1]]);
    vi.advanceTimersByTime(1);
    b.add(4);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('sends a full batch at once while a flush runs and the hold has not run out', () => {
    vi.useFakeTimers();
    const { b, batches } = batcher(3);
    b.add(1);
    b.add(2);
    b.add(3);
    expect(batches).toEqual([[1]]);
    b.add(4);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });
});
