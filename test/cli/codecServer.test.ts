import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataConverterFor } from '../../src/codec/dataConverter';
import { EncryptionCodec } from '../../src/codec/encryption';
import { parsePayloadKeys, type PayloadKeys } from '../../src/codec/keys';
import { payloadsFromJson, payloadsToJson } from '../../src/codec/payloadJson';
import { createTemporalClient } from '../../src/temporal/client';
import { CLI, sitechat } from '../helpers/cli';
import { namespaceForFile } from '../helpers/namespace';
import { postJson } from '../helpers/postJson';

const KEYS = `cli-1:${randomBytes(32).toString('base64')}`;
const QUESTION = 'Can my accountant see my invoices without my password?';

/** A workflow type only this test starts (nobody runs it): its input, the question, is what the history holds. */
async function codecProbe(_question: string): Promise<void> {}


describe('payload keys on the command line: sitechat codec-server, sitechat temporal, malformed keys', () => {
  let dir: string;
  let watched: Server;
  let connections = 0;
  let watchedAddress: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-codec-cli-'));
    writeFileSync(join(dir, 'q.csv'), `id,question\nq1,${QUESTION}\n`);
    watched = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => watched.listen(0, '127.0.0.1', resolve));
    watchedAddress = `127.0.0.1:${(watched.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => watched?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a malformed SITECHAT_PAYLOAD_KEYS stops run, worker, temporal and codec-server with exit 2, before Temporal is contacted', async () => {
    const env = { TEMPORAL_ADDRESS: watchedAddress, SITECHAT_BASE_URL: 'http://127.0.0.1:9/api/v1', SITECHAT_API_KEY: 'k', SITECHAT_SITE_ID: 's', SITECHAT_PAYLOAD_KEYS: `k1:${randomBytes(16).toString('base64')}` };
    for (const args of [['run', 'q.csv', '--allow-ungraded'], ['worker'], ['temporal', 'workflow', 'list'], ['codec-server']]) {
      const ran = await sitechat(dir, args, env);
      expect(ran.code, `${args.join(' ')}\n${ran.stderr}`).toBe(2);
      // The wording is pinned in test/unit/codec/keys.test.ts; here, that each command names the variable, the entry and the size.
      expect(ran.stderr).toContain('SITECHAT_PAYLOAD_KEYS: entry 1 (key id "k1"): ');
      expect(ran.stderr).toContain('the key is 16 bytes');
    }
    expect(connections).toBe(0);
    const none = await sitechat(dir, ['codec-server'], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/SITECHAT_PAYLOAD_KEYS is not set/u);
    const origin = await sitechat(dir, ['codec-server', '--ui-origin', 'http://127.0.0.1:8233/ui'], { SITECHAT_PAYLOAD_KEYS: KEYS });
    expect(origin.code).toBe(2);
    expect(origin.stderr).toMatch(/--ui-origin must be an origin/u);
    const help = await sitechat(dir, ['codec-server', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--ui-origin <origin>[\s\S]*\nExamples:\n[\s\S]*\nExit codes:/u);
  });

  it('sitechat codec-server prints the CLI settings and the Web UI endpoint, decodes with them, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'codec-server', '--port', '0'], { cwd: dir, env: { PATH: process.env.PATH, SITECHAT_PAYLOAD_KEYS: KEYS }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.split('\n').length > 2) resolve();
      });
      child.once('exit', () => reject(new Error(`codec-server exited: ${stderr}`)));
    });
    const settings = /^export TEMPORAL_CODEC_ENDPOINT=(\S+) TEMPORAL_CODEC_AUTH='(Bearer \S+)'$/mu.exec(stdout);
    expect(settings, stdout).not.toBeNull();
    const [, endpoint, auth] = settings as unknown as [string, string, string];
    expect(stdout).toContain(`${endpoint}/${auth.replace('Bearer ', '')}`);
    expect(stderr).toMatch(/CORS for http:\/\/127\.0\.0\.1:8233, http:\/\/localhost:8233/u);
    const [sealed] = await new EncryptionCodec(parsePayloadKeys(KEYS) as PayloadKeys).encode([defaultPayloadConverter.toPayload(QUESTION)]);
    const reply = await postJson(`${endpoint}/decode`, payloadsToJson([sealed as Payload]), { Authorization: auth });
    expect(reply.status).toBe(200);
    expect(defaultPayloadConverter.fromPayload(payloadsFromJson(reply.body)[0] as Payload)).toBe(QUESTION);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('sitechat temporal workflow show decodes with SITECHAT_PAYLOAD_KEYS, and shows ciphertext without', async () => {
    const namespace = namespaceForFile(__filename);
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    const workflowId = `codec-cli-${Date.now()}`;
    try {
      // Started, never run (nobody polls the queue): its input is in the history, encrypted.
      const client = createTemporalClient(connection, { namespace, dataConverter: dataConverterFor(parsePayloadKeys(KEYS)) });
      await client.workflow.start(codecProbe, { taskQueue: 'codec-cli-nobody', workflowId, args: [QUESTION] });
    } finally {
      await connection.close();
    }
    const env = { TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespace };
    const shown = (ran: { stdout: string }): string => {
      const history = JSON.parse(ran.stdout) as { events: { workflowExecutionStartedEventAttributes?: { input?: { payloads: { data: string }[] } } }[] };
      return Buffer.from(history.events[0]?.workflowExecutionStartedEventAttributes?.input?.payloads[0]?.data ?? '', 'base64').toString('utf8');
    };
    const decoded = await sitechat(dir, ['temporal', 'workflow', 'show', '--workflow-id', workflowId, '--output', 'json'], { ...env, SITECHAT_PAYLOAD_KEYS: KEYS });
    expect(decoded.code, decoded.stderr).toBe(0);
    expect(shown(decoded)).toContain(QUESTION);
    const sealed = await sitechat(dir, ['temporal', 'workflow', 'show', '--workflow-id', workflowId, '--output', 'json'], env);
    expect(sealed.code, sealed.stderr).toBe(0);
    expect(shown(sealed)).not.toContain(QUESTION);
    expect(sealed.stdout).toContain(Buffer.from('binary/encrypted').toString('base64'));
  });
});
