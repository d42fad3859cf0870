import { describe, expect, it } from 'vitest';
import { statusPollKey } from '../../../activities/ask';
import { Endpoints } from '../../../src/api/endpoints';
import { pacerKeyLabels } from '../../../src/observability/metrics/pacerLabels';

describe('pacer key labels', () => {
  it('names the endpoint template and the site, never a filled-in id', () => {
    expect(pacerKeyLabels('POST /m2m/sites/site-a/chat/async')).toEqual({ method: 'POST', path: Endpoints.chatAsync.path, site: 'site-a' });
    expect(pacerKeyLabels('POST /m2m/sites/site-a/chat/session/close')).toEqual({ method: 'POST', path: Endpoints.closeSession.path, site: 'site-a' });
    expect(pacerKeyLabels('GET /m2m/sites/site%20b/sessions')).toEqual({ method: 'GET', path: Endpoints.listSessions.path, site: 'site b' });
    // The per-route key of status polls stands for every request id of the site.
    expect(pacerKeyLabels(statusPollKey('site-a'))).toEqual({ method: 'GET', path: Endpoints.requestStatus.path, site: 'site-a' });
    expect(pacerKeyLabels('GET /m2m/tenants/t-1/limits')).toEqual({ method: 'GET', path: Endpoints.tenantLimits.path, site: '' });
  });
});
