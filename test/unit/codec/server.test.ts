import { request } from 'node:http';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptionCodec } from '../../../src/codec/encryption';
import { parsePayloadKeys, type PayloadKeys } from '../../../src/codec/keys';
import { payloadsFromJson, payloadsToJson } from '../../../src/codec/payloadJson';
import { startCodecServer, type RunningCodecServer } from '../../../src/codec/server';
import { keyEntry } from './testKeys';

const TOKEN = 'codec-test-token-0123456789abcdef';
const UI = 'http://127.0.0.1:8233';
const ANSWER = { answer: 'Refunds are possible within 14 days.' };

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: string }

function call(server: RunningCodecServer, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: options.method ?? 'POST', headers: { 'Content-Type': 'application/json', ...options.headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the codec server (Temporal remote codec protocol, for the Web UI and CLI)', () => {
  const codec = new EncryptionCodec(parsePayloadKeys(keyEntry('k1')) as PayloadKeys);
  let server: RunningCodecServer;
  let sealed: Payload;
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const body = (): string => payloadsToJson([sealed]);

  beforeAll(async () => {
    server = await startCodecServer({ codec, token: TOKEN, uiOrigins: [UI] });
    [sealed] = (await codec.encode([defaultPayloadConverter.toPayload(ANSWER)])) as [Payload];
  });
  afterAll(() => server?.close());

  it('decodes with the token in the Authorization header (the CLI) or as the path (the Web UI), on loopback', async () => {
    expect(server.endpoint).toBe(`http://127.0.0.1:${server.port}`);
    for (const [path, headers] of [['/decode', auth], [`/${TOKEN}/decode`, {}], ['/default/decode', { Authorization: TOKEN }]] as const) {
      const reply = await call(server, path, { headers, body: body() });
      expect(reply.status, path).toBe(200);
      const [decoded] = payloadsFromJson(reply.body);
      expect(defaultPayloadConverter.fromPayload(decoded as Payload)).toEqual(ANSWER);
    }
    expect(server.endpointWithToken).toBe(`${server.endpoint}/${TOKEN}`);
  });

  it('encodes what the UI or CLI sends (a signal, an input) with the encrypting key', async () => {
    const reply = await call(server, '/encode', { headers: auth, body: payloadsToJson([defaultPayloadConverter.toPayload(ANSWER)]) });
    expect(reply.status).toBe(200);
    const [encoded] = payloadsFromJson(reply.body);
    expect(Buffer.from(encoded?.metadata?.encoding ?? []).toString()).toBe('binary/encrypted');
    expect(reply.body).not.toContain(Buffer.from(JSON.stringify(ANSWER)).toString('base64').slice(0, 16));
    expect(defaultPayloadConverter.fromPayload((await codec.decode([encoded as Payload]))[0] as Payload)).toEqual(ANSWER);
  });

  it('refuses a request without the token, or with another', async () => {
    for (const headers of [{}, { Authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const reply = await call(server, '/decode', { headers, body: body() });
      expect(reply.status).toBe(401);
      expect(reply.body).not.toContain('14 days');
    }
    expect((await call(server, '/nope/decode', { body: body() })).status).toBe(401);
  });

  it("answers the Web UI's origin with CORS, and refuses every other origin before decoding", async () => {
    const preflight = await call(server, `/${TOKEN}/decode`, { method: 'OPTIONS', headers: { Origin: UI, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-namespace' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(UI);
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/X-Namespace/u);
    expect(preflight.headers['access-control-allow-private-network']).toBeUndefined();
    const fromInternet = await call(server, `/${TOKEN}/decode`, { method: 'OPTIONS', headers: { Origin: UI, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Private-Network': 'true' } });
    expect(fromInternet.headers['access-control-allow-private-network']).toBe('true');
    const fromUi = await call(server, `/${TOKEN}/decode`, { headers: { Origin: UI }, body: body() });
    expect(fromUi.status).toBe(200);
    expect(fromUi.headers['access-control-allow-origin']).toBe(UI);

    for (const method of ['OPTIONS', 'POST']) {
      const other = await call(server, `/${TOKEN}/decode`, { method, headers: { Origin: 'http://127.0.0.1:9999', ...auth }, body: method === 'POST' ? body() : undefined });
      expect(other.status, method).toBe(403);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      expect(other.body).not.toContain('14 days');
    }
  });

  it('refuses a Host that is not its loopback address (a DNS-rebinding page)', async () => {
    const reply = await call(server, '/decode', { headers: { ...auth, Host: `evil.example:${server.port}` }, body: body() });
    expect(reply.status).toBe(403);
    expect((await call(server, '/decode', { headers: { ...auth, Host: `localhost:${server.port}` }, body: body() })).status).toBe(200);
  });

  it('says what is wrong: a key id it does not hold (400, named), a body that is not Payloads JSON, a route or method', async () => {
    const [foreign] = await new EncryptionCodec(parsePayloadKeys(keyEntry('other')) as PayloadKeys).encode([defaultPayloadConverter.toPayload(ANSWER)]);
    const unknown = await call(server, '/decode', { headers: auth, body: payloadsToJson([foreign as Payload]) });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toContain('key id "other"');
    expect((await call(server, '/decode', { headers: auth, body: '{' })).status).toBe(400);
    expect((await call(server, '/decode', { headers: auth, body: '{"payloads":[{"data":"***"}]}' })).status).toBe(400);
    expect((await call(server, '/decode', { method: 'GET', headers: auth })).status).toBe(405);
    expect((await call(server, '/metrics', { headers: auth, body: body() })).status).toBe(404);
  });
});
