import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookPayload } from '../../src/notify/webhook';
import { CLI, sitechat } from '../helpers/cli';
import { Receiver } from '../helpers/receiver';

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
    expect(refused.stderr).toContain('slack (SLACK_URL): FAILED: HTTP 404: no_service');
    expect(refused.stderr + refused.stdout).not.toContain(TOKEN);
  });
});
