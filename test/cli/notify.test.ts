import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookPayload } from '../../src/notify/webhook';
import { CLI, sitechat } from '../helpers/cli';
import { expressNotFound, Receiver } from '../helpers/receiver';

const SECRET = 'cli-notify-signing-secret-3c5d';
const TOKEN = 'cli-hook-token-81f0';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

describe('sitechat run --notify and sitechat notify test (the CLI, embedded Temporal and simulator, a local receiver)', () => {
  let dir: string;
  let dataset: string;
  const receiver = new Receiver(SECRET);
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-notify-cli-'));
    dataset = join(dir, 'tiny.csv');
    writeFileSync(dataset, 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\nq2,How much storage do I get for free?,a phrase no answer has\n');
    const base = await receiver.start();
    env = { HOOK_URL: `${base}/hook/${TOKEN}`, HOOK_SECRET: SECRET, SLACK_URL: `${base}/slack/${TOKEN}` };
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses, before anything starts (exit 2), a URL in place of a name, a malformed trigger and an unset variable', async () => {
    const url = await sitechat(dir, ['run', dataset, '--notify', `slack:${env.SLACK_URL ?? ''}`]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--notify takes the NAME of an environment variable');
    expect(url.stderr).not.toContain(TOKEN);
    const on = await sitechat(dir, ['run', dataset, '--notify', 'slack:SLACK_URL', '--notify-on', 'failed,weekly'], env);
    expect(on.code).toBe(2);
    expect(on.stderr).toContain('--notify-on unknown trigger "weekly"');
    const unset = await sitechat(dir, ['run', dataset, '--notify', 'webhook:HOOK_URL:NOT_SET_ANYWHERE'], env);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('--notify webhook: NOT_SET_ANYWHERE is not set');
    const config = join(dir, 'notify.yaml');
    writeFileSync(config, `notify: ["slack:${env.SLACK_URL ?? ''}"]\nnotifyOn: [failed, monthly]\n`);
    const fromConfig = await sitechat(dir, ['run', dataset, '--config', config], env);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain(`--config ${config}: \`notify[0]\` takes the NAME of an environment variable`);
    expect(fromConfig.stderr).toContain(`--config ${config}: \`notifyOn\` unknown trigger "monthly"`);
    expect(fromConfig.stderr).not.toContain(TOKEN);
    // It holds the URL itself: out of the directory the next test searches for it.
    rmSync(config);
    expect(receiver.received).toHaveLength(0);
  });

  it('notifies when the run fails, shows it in the summary, keeps the exit code, and prints no URL or secret', async () => {
    const out = join(dir, 'report');
    const ran = await sitechat(dir, ['run', dataset, '--fail-under', '90%', '--out', out, '--notify', 'webhook:HOOK_URL:HOOK_SECRET', '--notify', 'slack:SLACK_URL'], env);
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(/notification webhook \(HOOK_URL\): delivered \(trigger failed\)/u);
    expect(ran.stderr).toMatch(/notification slack \(SLACK_URL\): delivered \(trigger failed\)/u);
    const hook = receiver.received.find((r) => r.path.startsWith('/hook'));
    expect(hook?.verified).toBe(true);
    expect((hook?.json as WebhookPayload).verdict).toBe('failed');
    for (const text of [ran.stdout, ran.stderr, ...files(dir).filter((f) => !f.endsWith('.db')).map((f) => readFileSync(f, 'utf8'))]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(SECRET);
    }
  });

  it('notify test sends a sample to each destination (exit 0), and exit 3 naming the answer when one refuses it', async () => {
    const mark = receiver.received.length;
    const ok = await sitechat(dir, ['notify', 'test', '--notify', 'webhook:HOOK_URL:HOOK_SECRET', '--notify', 'slack:SLACK_URL'], env);
    expect(ok.code, ok.stderr).toBe(0);
    const sent = receiver.received.slice(mark);
    expect(sent).toHaveLength(2);
    expect((sent.find((r) => r.path.startsWith('/hook'))?.json as WebhookPayload).test).toBe(true);
    expect(sent.find((r) => r.path.startsWith('/hook'))?.verified).toBe(true);
    receiver.reply = () => ({ status: 404, body: 'no_service' });
    const refused = await sitechat(dir, ['notify', 'test', '--notify', 'slack:SLACK_URL'], env);
    receiver.reply = () => ({ status: 200 });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('slack (SLACK_URL): FAILED: HTTP 404 Not Found: no_service');
    expect(refused.stderr + refused.stdout).not.toContain(TOKEN);
  });

  it('a receiver that quotes the URL\'s path (a 500, then Express\'s 404 page) shows only its status: in stderr, JSON logs and every file', async () => {
    const out = join(dir, 'echoed');
    const mark = receiver.received.length;
    receiver.reply = (r, i) => (i === mark ? { status: 500, headers: { 'Retry-After': '0' }, body: `upstream failed for POST ${r.path}` } : expressNotFound(r));
    const ran = await sitechat(dir, ['run', dataset, '--fail-under', '90%', '--out', out, '--notify', 'webhook:HOOK_URL:HOOK_SECRET'], { ...env, SITECHAT_LOG_FORMAT: 'json' });
    receiver.reply = () => ({ status: 200 });
    expect(ran.code, ran.stderr).toBe(1);
    // Both answers quoted the path; the 500 was retried, the 404 refused.
    expect(receiver.received.slice(mark).map((r) => r.path)).toEqual([`/hook/${TOKEN}`, `/hook/${TOKEN}`]);
    expect(ran.stderr).toContain('FAILED: HTTP 404 Not Found');
    expect(JSON.parse(readFileSync(join(out, 'notifications.json'), 'utf8'))).toEqual([expect.objectContaining({ status: 'failed', error: 'HTTP 404 Not Found', attempts: 2 })]);
    receiver.reply = expressNotFound;
    const notify = await sitechat(dir, ['notify', 'test', '--notify', 'webhook:HOOK_URL:HOOK_SECRET'], env);
    receiver.reply = () => ({ status: 200 });
    expect(notify.code).toBe(3);
    expect(notify.stderr).toContain('webhook (HOOK_URL): FAILED: HTTP 404 Not Found');
    for (const text of [ran.stdout, ran.stderr, notify.stdout, notify.stderr, ...files(dir).filter((f) => !f.endsWith('.db')).map((f) => readFileSync(f, 'utf8'))]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('Cannot POST');
      expect(text).not.toContain('upstream failed');
    }
  });

  it('notify test reads a few KiB of a receiver that answers 256 MiB', async () => {
    const mark = receiver.received.length;
    const huge = 256 * 1024 * 1024;
    receiver.reply = () => ({ status: 500, streamBytes: huge });
    const ran = await sitechat(dir, ['notify', 'test', '--notify', 'webhook:HOOK_URL:HOOK_SECRET'], env);
    receiver.reply = () => ({ status: 200 });
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('webhook (HOOK_URL): FAILED: HTTP 500 Internal Server Error');
    await receiver.answered(mark);
    expect(receiver.received[mark]?.streamed ?? huge).toBeLessThan(16 * 1024 * 1024);
  });
});
