import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer as createTcp, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertMet, skippable } from '../../helpers/requirements';
import { SiteChatClient } from '../../../src/api';
import { CheckOutcome, runChecks, type CheckResult } from '../../../src/check';

const servers: { close(cb?: () => void): unknown }[] = [];
const sockets = new Set<Socket>();
afterAll(async () => {
  for (const s of sockets) s.destroy();
  for (const s of servers) await new Promise<void>((r) => void s.close(() => r()));
});

async function listen<T extends Server | ReturnType<typeof createTcp>>(server: T): Promise<number> {
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** Runs the site check against `baseUrl` with a short timeout. */
async function siteCheck(baseUrl: string, timeoutMs = 300): Promise<CheckResult> {
  const client = new SiteChatClient({ baseUrl, apiKey: 'sk-unit-test', connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs });
  try {
    const report = await runChecks({ client, baseUrl, siteIds: ['shop'], timeoutMs });
    expect(report.ok).toBe(false);
    return report.checks[1] as CheckResult;
  } finally {
    await client.close();
  }
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('network failures against real sockets', () => {
  it('a closed port is "refused"', async () => {
    const probe = createTcp();
    const port = await listen(probe);
    await new Promise<void>((r) => probe.close(() => r()));
    servers.pop();
    expect(await siteCheck(`http://127.0.0.1:${port}/api/v1`)).toMatchObject({ outcome: CheckOutcome.refused, code: 'ECONNREFUSED' });
  });

  it('a server that accepts and never answers is a "timeout"', async () => {
    const port = await listen(createTcp(() => undefined));
    const r = await siteCheck(`http://127.0.0.1:${port}/api/v1`);
    expect(r).toMatchObject({ outcome: CheckOutcome.timeout, code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(r.diagnosis).toMatch(/within 300 ms/);
  });

  it('https:// to a plain HTTP port is a TLS failure that says so', async () => {
    const port = await listen(createHttp((_req, res) => res.end('{}')));
    const r = await siteCheck(`https://127.0.0.1:${port}/api/v1`);
    expect(r.outcome).toBe(CheckOutcome.tls);
    expect(r.diagnosis).toMatch(/does not speak TLS/);
  });

  const noOpenssl = hasOpenssl() ? undefined : 'openssl is not installed (apt-get install openssl)';
  it.skipIf(skippable(noOpenssl))('a self-signed certificate is a TLS failure about trust', async () => {
    assertMet(noOpenssl);
    const dir = mkdtempSync(join(tmpdir(), 'sitechat-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'),
        '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      const port = await listen(createHttps({ key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) }, (_q, s) => s.end('{}')));
      const r = await siteCheck(`https://127.0.0.1:${port}/api/v1`, 2000);
      expect(r).toMatchObject({ outcome: CheckOutcome.tls, code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(r.diagnosis).toMatch(/not trusted/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a host name that does not resolve is "dns"', async () => {
    const r = await siteCheck('http://sitechat-check.invalid/api/v1', 5000);
    expect(r.outcome).toBe(CheckOutcome.dns);
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(r.code);
  });

  it('a server that is not the Site Chat API', async () => {
    const port = await listen(createHttp((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>')));
    expect((await siteCheck(`http://127.0.0.1:${port}/api/v1`)).outcome).toBe(CheckOutcome.badResponse);
  });
});
