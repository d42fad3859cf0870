/**
 * The client's observer hook (`SiteChatClientOptions.observer`): how metrics and traces see every call without the
 * client importing them (src/observability/apiObserver.ts is the runner's observer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteChatClient, type ApiObserver } from '../../../src/api';
import { API_KEY, json, withServer } from './server';

let env: Awaited<ReturnType<typeof withServer>>;

beforeAll(async () => {
  env = await withServer((req, res) => {
    if (req.url.startsWith('/api/v1/m2m/tenants/tenant-1/limits')) json(res, 200, { requests_per_second: 5, plan: { level: 2 } });
    else json(res, 404, { error: 'not found' });
  });
});
afterAll(() => env.close());

/** Records what the observer is told, in order. */
function recorder(): { observer: ApiObserver; seen: string[] } {
  const seen: string[] = [];
  const observer: ApiObserver = {
    async around(call, origin, send) {
      seen.push(`around ${call.endpoint.method} ${call.endpoint.path} ${String(call.params.tenant_id)} at ${origin.hostname}`);
      try {
        return await send((status) => seen.push(`status ${status}`));
      } finally {
        seen.push('around done');
      }
    },
    exchanged(call, status, durationMs) {
      seen.push(`exchanged ${call.endpoint.path} ${String(status)} ${durationMs >= 0 ? 'timed' : 'untimed'}`);
    },
  };
  return { observer, seen };
}

describe('the observer', () => {
  it('runs each call inside `around` and hears its status and duration, refusals included', async () => {
    const { observer, seen } = recorder();
    const client = new SiteChatClient({ baseUrl: env.server.baseUrl, apiKey: API_KEY, observer });
    await client.tenants.limits('tenant-1');
    await expect(client.tenants.limits('tenant-2')).rejects.toThrow();
    await client.close();
    const path = '/m2m/tenants/{tenant_id}/limits';
    expect(seen).toEqual([
      `around GET ${path} tenant-1 at 127.0.0.1`, `exchanged ${path} 200 timed`, 'status 200', 'around done',
      `around GET ${path} tenant-2 at 127.0.0.1`, `exchanged ${path} 404 timed`, 'status 404', 'around done',
    ]);
    expect(seen.join('\n')).not.toContain(API_KEY);
  });

  it('hears an exchange without a response as one without a status', async () => {
    const { observer, seen } = recorder();
    const client = new SiteChatClient({ baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: API_KEY, observer, connectTimeoutMs: 2_000 });
    await expect(client.tenants.limits('tenant-1')).rejects.toThrow();
    await client.close();
    expect(seen).toEqual([`around GET /m2m/tenants/{tenant_id}/limits tenant-1 at 127.0.0.1`, 'exchanged /m2m/tenants/{tenant_id}/limits undefined timed', 'around done']);
  });
});
