import { Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps';
import { asFailure, shortError } from './failures';
import { retryInline } from './retryInline';
import type { CloseSessionsResult } from './types';

export function sessionActivities(deps: ActivityDeps) {
  return {
    /**
     * One cheap site-scoped read before any question is sent, so a bad key, a plan without API access or an
     * unknown site fails the run in seconds with the API's reason instead of failing every row.
     */
    async preflight({ siteId }: { siteId: string }): Promise<void> {
      const signal = Context.current().cancellationSignal;
      await asFailure(() => deps.limiter.run(`GET /m2m/sites/${siteId}/sessions`, () => deps.api.sessions.list(siteId, { limit: 1 }, { signal }), signal));
    },

    /**
     * Closes a batch of sessions, paced by the per-path limiter. A session that cannot be closed is reported, not
     * thrown, and recorded with its reason in the results store (when `runId` is given) for the reports.
     */
    async closeSessions({ runId, siteId, sessionIds }: { runId?: string; siteId: string; sessionIds: string[] }): Promise<CloseSessionsResult> {
      const ctx = Context.current();
      const result: CloseSessionsResult = { closed: 0, failed: [] };
      for (const sessionId of sessionIds) {
        try {
          await retryInline(() =>
            deps.limiter.run(`POST /m2m/sites/${siteId}/chat/session/close`, () =>
              deps.api.chat.closeSession(siteId, sessionId, { signal: ctx.cancellationSignal }), ctx.cancellationSignal));
          result.closed += 1;
        } catch (err) {
          result.failed.push({ sessionId, error: shortError(err) });
        }
        ctx.heartbeat();
      }
      if (runId !== undefined && result.failed.length > 0) await deps.store.recordSessionFailures(runId, result.failed);
      return result;
    },
  };
}
