/**
 * What the runner measures and traces of its Site Chat API calls, handed to every client it builds
 * (`new SiteChatClient({ ..., observer: apiObserver })`): the request metrics (metrics/apiCalls.ts) and, when tracing
 * is on, a span per call (tracing/apiSpan.ts). The client itself imports neither.
 */
import type { ApiObserver } from '../api/config';
import { apiCallMetrics } from './metrics/apiCalls';
import { setApiStatus, withApiSpan } from './tracing/apiSpan';
import { activeTracing } from './tracing/state';

export const apiObserver: ApiObserver = {
  around(call, origin, send) {
    const tracing = activeTracing();
    if (tracing === undefined) return send(() => undefined);
    return withApiSpan(tracing, origin, call, (span) => send((status) => setApiStatus(span, status)));
  },
  exchanged(call, status, durationMs) {
    apiCallMetrics(call.endpoint, call.params.site_id, status, durationMs);
  },
};
