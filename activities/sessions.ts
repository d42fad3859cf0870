import { Context } from '@temporalio/activity';
import { metrics } from '../src/observability/metrics/registry';
import type { SessionCloseFailure } from '../src/domain/results';
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

    /** Sessions a run could not close, with the reason, for the reports. */
    async recordSessionFailures({ runId, failures }: { runId: string; failures: SessionCloseFailure[] }): Promise<void> {
      await deps.store.recordSessionFailures(runId, failures);
    },

    /**
     * Closes a batch of sessions for the cleanup workflow, paced per host. A session that cannot be closed is
     * reported in the result, not thrown: the cleanup report lists it.
     */
    async closeSessions({ siteId, sessionIds }: { siteId: string; sessionIds: string[] }): Promise<CloseSessionsResult> {
      const ctx = Context.current();
      const result: CloseSessionsResult = { closed: 0, failed: [] };
      for (const sessionId of sessionIds) {
        try {
          await retryInline(() =>
            deps.limiter.run(`POST /m2m/sites/${siteId}/chat/session/close`, () =>
              deps.api.chat.closeSession(siteId, sessionId, { signal: ctx.cancellationSignal }), ctx.cancellationSignal));
          result.closed += 1;
          metrics().sessionCloses.inc({ site: siteId, result: 'ok' });
        } catch (err) {
          result.failed.push({ sessionId, error: shortError(err) });
          metrics().sessionCloses.inc({ site: siteId, result: 'failed' });
        }
        ctx.heartbeat();
      }
      return result;
    },
  };
}
