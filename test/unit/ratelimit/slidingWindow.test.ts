import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { delay, SlidingWindowLimiter, wakeableDelay } from '../../../src/ratelimit/slidingWindow';

describe('SlidingWindowLimiter', () => {
  it('never lets a request start until `limit` earlier requests have been answered for a full window', async () => {
    const limiter = new SlidingWindowLimiter(3, 200);
    const spans: { start: number; end: number }[] = [];
    await Promise.all(Array.from({ length: 9 }, () => limiter.run(async () => {
      const start = performance.now();
      await delay(15);
      spans.push({ start, end: performance.now() });
    })));
    spans.sort((a, b) => a.start - b.start);
    const ends = spans.map((s) => s.end).sort((a, b) => a - b);
    // The (i+3)-th start comes at least a window after the i-th response: the server, which counts arrivals
    // somewhere in between, can never see 4 in one window.
    for (let i = 0; i + 3 < spans.length; i++) {
      expect((spans[i + 3] as { start: number }).start).toBeGreaterThanOrEqual((ends[i] as number) + 200 - 1);
    }
  });

  it('serves callers in arrival order, and a cancelled waiter does not block the ones behind it', async () => {
    const limiter = new SlidingWindowLimiter(1, 100);
    const order: string[] = [];
    const aborted = new AbortController();
    const first = limiter.run(async () => void order.push('a'));
    const second = limiter.run(async () => void order.push('b'), aborted.signal);
    const third = limiter.run(async () => void order.push('c'));
    aborted.abort(new Error('cancelled'));
    await first;
    await expect(second).rejects.toThrow('cancelled');
    await third;
    expect(order).toEqual(['a', 'c']);
  });

  it('a limit of 0 turns it off', async () => {
    const off = new SlidingWindowLimiter(0, 1000);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => off.run(async () => i)));
    expect(results).toHaveLength(20);
  });

  it('passes errors through and frees the slot', async () => {
    const limiter = new SlidingWindowLimiter(1, 50);
    await expect(limiter.run(async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });
});

describe('SlidingWindowLimiter waits', () => {
  it('leave no abort listener and no timer behind when a request ends before the window would have let them go', async () => {
    vi.useFakeTimers();
    try {
      let clock = 0;
      const limiter = new SlidingWindowLimiter(1, 60_000, () => clock);
      const signal = new AbortController().signal;
      const releases: (() => void)[] = [];
      const hold = (): Promise<void> => new Promise<void>((resolve) => releases.push(resolve));
      const first = limiter.run(hold, signal);
      // Twelve callers on one signal (more than Node's 10 before it warns), each woken early by the request before it.
      const waiting = Array.from({ length: 12 }, () => limiter.run(hold, signal));
      for (let i = 0; i < 12; i++) {
        await vi.advanceTimersByTimeAsync(0);
        expect(getEventListeners(signal, 'abort')).toHaveLength(1);
        expect(vi.getTimerCount()).toBe(1);
        // The request in flight ends: the waiter wakes, finds the window full, and waits again, once.
        releases.shift()?.();
        await vi.advanceTimersByTimeAsync(0);
        expect(getEventListeners(signal, 'abort')).toHaveLength(1);
        expect(vi.getTimerCount()).toBe(1);
        clock += 60_001;
        await vi.advanceTimersByTimeAsync(60_001);
      }
      releases.shift()?.();
      await Promise.all([first, ...waiting]);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('end with their delay when woken: the timer and the abort listener go too', async () => {
    vi.useFakeTimers();
    try {
      const signal = new AbortController().signal;
      const wait = wakeableDelay(60_000, signal);
      expect(getEventListeners(signal, 'abort')).toHaveLength(1);
      wait.wake();
      await wait.done;
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
