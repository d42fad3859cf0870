import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, sitechat } from '../helpers/cli';

/**
 * SITECHAT_METRICS_ADDR, SITECHAT_LOG_FORMAT and the OTEL_* tracing variables are settings like any other: a bad one exits 2 with its name, before
 * any server, worker or request starts (no Temporal server is given: none is needed to refuse them).
 */
describe('metrics and log settings are checked first (built CLI)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-obs-settings-'));
    writeFileSync(join(dir, 'q.csv'), 'question\nHow much does the Personal plan cost?\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const apiEnv = { SITECHAT_BASE_URL: 'http://127.0.0.1:9/api/v1', SITECHAT_API_KEY: 'sk-obs-settings-key-0123456789' };

  it('`sitechat worker` with a bad SITECHAT_METRICS_ADDR exits 2 naming it; the key is not printed', async () => {
    const res = await sitechat(dir, ['worker'], { ...apiEnv, SITECHAT_METRICS_ADDR: '127.0.0.1:99999' });
    expect(res.code, res.stderr).toBe(2);
    // The wording is pinned in test/unit/metrics/address.test.ts; here, that the worker prints it.
    expect(res.stderr).toContain('SITECHAT_METRICS_ADDR="127.0.0.1:99999": ');
    expect(res.stderr).toContain('port 99999 is out of range');
    expect(res.stderr).not.toContain(apiEnv.SITECHAT_API_KEY);
  });

  it('`sitechat worker` with an unknown SITECHAT_LOG_FORMAT exits 2 naming it', async () => {
    const res = await sitechat(dir, ['worker'], { ...apiEnv, SITECHAT_LOG_FORMAT: 'xml' });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('SITECHAT_LOG_FORMAT="xml": must be text or json');
  });

  it('`sitechat run` with a bad SITECHAT_METRICS_ADDR exits 2 before the embedded Temporal server or simulator starts', async () => {
    const res = await sitechat(dir, ['run', 'q.csv', '--allow-ungraded'], { SITECHAT_METRICS_ADDR: 'http://localhost:9464' });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('SITECHAT_METRICS_ADDR="http://localhost:9464": not host:port');
    expect(res.stderr).not.toMatch(/starting an embedded Temporal dev server|embedded simulator/);
    expect(readdirSync(dir)).not.toContain('.sitechat');
  });

  it('`sitechat worker` with OTLP over gRPC asked for exits 2 naming the variable', async () => {
    const res = await sitechat(dir, ['worker'], { ...apiEnv, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL="grpc": OTLP over gRPC is not supported');
  });

  it('`sitechat run` with a malformed OTEL_EXPORTER_OTLP_HEADERS exits 2 before anything starts, without printing the header value', async () => {
    const res = await sitechat(dir, ['run', 'q.csv', '--allow-ungraded'], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_HEADERS: 'authorization' });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('OTEL_EXPORTER_OTLP_HEADERS: entry 1 is not key=value');
    expect(res.stderr).not.toMatch(/starting an embedded Temporal dev server|embedded simulator/);
    expect(readdirSync(dir)).not.toContain('.sitechat');
  });
});
