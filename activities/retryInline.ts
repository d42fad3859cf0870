import { Context } from '@temporalio/activity';
import { SiteChatError } from '../src/api/errors';
import { doubling, retry } from '../src/shared/retry';

/**
 * Retries one call of a batch in place (1 s, 2 s, 4 s) when the API says it may succeed later. A batch activity
 * must not fail as a whole for one row's 429 or 500: its rows would have to be sent again.
 */
export async function retryInline<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  return retry(fn, {
    retryable: (err, attempt) => err instanceof SiteChatError && err.retryable && attempt < attempts,
    delayMs: (_err, attempt) => doubling(1000, attempt),
    sleep: (ms) => Context.current().sleep(ms),
  });
}
