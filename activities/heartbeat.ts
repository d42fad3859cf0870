import { Context } from '@temporalio/activity';

/**
 * How often a long local activity heartbeats: well inside the `local` proxy's heartbeat timeout (20 s), so a
 * worker that dies mid-activity is noticed within that timeout, and a live one is never mistaken for dead.
 * @default 5000
 */
export const HEARTBEAT_EVERY_MS = 5_000;

/**
 * Runs `work` while heartbeating every `everyMs`. Local work (reading plans, streaming the store into reports)
 * is asynchronous I/O, so the event loop runs the timer between reads and writes; what a heartbeat proves is that
 * the worker process is alive, and the activity's start-to-close timeout bounds work that never ends.
 */
export async function withHeartbeats<T>(work: () => Promise<T>, everyMs = HEARTBEAT_EVERY_MS): Promise<T> {
  const context = Context.current();
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** The same activities, each heartbeating while it runs. */
export function heartbeating<A extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: A): A {
  const wrapped: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities)) wrapped[name] = (...args) => withHeartbeats(() => fn(...args));
  return wrapped as A;
}
