import { Context } from '@temporalio/activity';
import { SiteChatError } from '../src/api/errors';

/**
 * Retries one call of a batch in place (1 s, 2 s, 4 s) when the API says it may succeed later. A batch activity
 * must not fail as a whole for one row's 429 or 500: its rows would have to be sent again.
 */
export async function retryInline<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const retryable = err instanceof SiteChatError && err.retryable;
      if (!retryable || attempt >= attempts) throw err;
      await Context.current().sleep(1000 * 2 ** (attempt - 1));
    }
  }
}
