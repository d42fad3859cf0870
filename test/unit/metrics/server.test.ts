import { afterEach, describe, expect, it } from 'vitest';
import { Registry, Counter } from 'prom-client';
import { freeLoopbackPort, serveMetrics, type MetricsServer } from '../../../src/observability/metrics/server';

describe('metrics endpoint', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => server?.close());

  it('serves the registry on /metrics at the port it bound (0: ephemeral); other paths are 404', async () => {
    const registry = new Registry();
    new Counter({ name: 'sitechat_test_total', help: 'a test counter', registers: [registry] }).inc(3);
    server = await serveMetrics(registry, { host: '127.0.0.1', port: 0 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/metrics$/);
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(registry.contentType);
    expect(await res.text()).toContain('sitechat_test_total 3');
    expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
  });

  it("still serves the runner's metrics when the Temporal SDK's endpoint does not answer, saying so", async () => {
    const registry = new Registry();
    new Counter({ name: 'sitechat_test_total', help: 'a test counter', registers: [registry] }).inc();
    // A port nothing listens on: what a scrape sees when the SDK's exporter could not bind.
    const closedPort = await freeLoopbackPort();
    server = await serveMetrics(registry, { host: '127.0.0.1', port: 0 }, `http://127.0.0.1:${closedPort}/metrics`);
    const text = await (await fetch(server.url)).text();
    expect(text).toContain('sitechat_test_total 1');
    expect(text).toMatch(/^# Temporal SDK metrics unavailable: /m);
  });

  it('refuses an address in use with the error of the listen', async () => {
    server = await serveMetrics(new Registry(), { host: '127.0.0.1', port: 0 });
    const port = Number(new URL(server.url).port);
    await expect(serveMetrics(new Registry(), { host: '127.0.0.1', port })).rejects.toThrow(/EADDRINUSE/);
  });
});
