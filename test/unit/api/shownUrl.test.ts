/** Errors never echo a URL's query, fragment or userinfo: the one helper, and each place that prints a URL it was given. */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../src/api/secret';
import { createJudge } from '../../../src/grading/judge/openaiJudge';
import { parseBaseUrl, resolveConfig } from '../../../src/api/config';
import { shownUrl } from '../../../src/api/shownUrl';
import { redactStoreUrl } from '../../../src/store/pg/database';
import { openStore } from '../../../src/store/open';
import { configReport, formatCheckReport } from '../../../src/check';
import { checkAction } from '../../../src/cli/commands/check/action';
import type { Logger } from '../../../src/cli/logger';

const SECRETS = ['s3cr3t-code', 'hunter2-pass', 'frag-token', 'user-token'];

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text, text).not.toContain(secret);
}

function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('did not throw');
}

describe('shownUrl', () => {
  it('keeps scheme, host, port and path; says that userinfo, query and fragment were there, never what they were', () => {
    expect(shownUrl('https://user-token:hunter2-pass@chat.example:8443/api/v1?code=s3cr3t-code#frag-token')).toBe('https://[REDACTED]@chat.example:8443/api/v1?[REDACTED]#[REDACTED]');
    expect(shownUrl('http://localhost:8080/api/v1')).toBe('http://localhost:8080/api/v1');
    expect(shownUrl('http://user-token@chat.example/')).toBe('http://[REDACTED]@chat.example');
    expect(shownUrl('http://chat.example:8080/?code=s3cr3t-code')).toBe('http://chat.example:8080?[REDACTED]');
    expect(shownUrl('postgres://sitechat:hunter2-pass@db:5432/runs?sslmode=require&password=s3cr3t-code')).toBe('postgres://[REDACTED]@db:5432/runs?[REDACTED]');
    expect(shownUrl('http://chat.example/api/v1?')).toBe('http://chat.example/api/v1');
    // Parsed with `localhost:` as its scheme.
    expect(shownUrl('localhost:8080/api/v1?code=s3cr3t-code')).toBe('localhost:8080/api/v1?[REDACTED]');
  });

  it('a text that is no URL: cut at its query or fragment, anything up to an @ replaced', () => {
    expect(shownUrl('http://chat example/api/v1?code=s3cr3t-code')).toBe('http://chat example/api/v1?[REDACTED]');
    expect(shownUrl('http://user-token:hunter2-pass@chat example/x#frag-token')).toBe('[REDACTED]@chat example/x#[REDACTED]');
    expect(shownUrl('not a url')).toBe('not a url');
  });
});

describe('every message that names a URL it was given', () => {
  const hostile = 'https://user-token:hunter2-pass@chat.example/api/v1?code=s3cr3t-code#frag-token';

  it('SITECHAT_BASE_URL: refused for its query, its scheme, its path or as no URL, never echoed whole', () => {
    const messages = [
      thrown(() => parseBaseUrl('https://chat.example/api/v1?code=s3cr3t-code')),
      thrown(() => parseBaseUrl('https://chat.example/api/v1#frag-token')),
      thrown(() => parseBaseUrl('ftp://chat.example/api/v1?code=s3cr3t-code')),
      thrown(() => parseBaseUrl('https://chat.example/v2?code=s3cr3t-code')),
      thrown(() => parseBaseUrl('https://chat example/api/v1?code=s3cr3t-code')),
      thrown(() => parseBaseUrl(hostile)),
      thrown(() => resolveConfig({ baseUrl: 'https://chat.example/api/v1?code=s3cr3t-code', apiKey: 'k'.repeat(20) })),
    ];
    messages.forEach(expectNoSecret);
    expect(messages[0]).toBe('SITECHAT_BASE_URL must not have a query or fragment, got https://chat.example/api/v1?[REDACTED]');
    expect(messages[3]).toContain('got https://chat.example/v2?[REDACTED]');
  });

  it('SITECHAT_STORE_URL: its location in messages has no user, password or query', () => {
    const url = 'postgres://sitechat:hunter2-pass@127.0.0.1:1/runs?password=s3cr3t-code';
    expect(redactStoreUrl(url)).toBe('postgres://[REDACTED]@127.0.0.1:1/runs?[REDACTED]');
    const opened = openStore('/tmp/none', url);
    expectNoSecret(opened.location);
    void opened.close();
  });

  it('the judge, logged or serialized (a base URL may carry ?code= or ?api-key=)', () => {
    const judge = createJudge({ baseUrl: 'https://judge.example/v1?code=s3cr3t-code', apiKey: new Secret('k'.repeat(20)), model: 'm', rpm: 0, timeoutMs: 1000, maxAttempts: 1, maxRetryAfterMs: 0, jsonMode: true });
    expect(JSON.parse(JSON.stringify(judge))).toEqual({ model: 'm', baseUrl: 'https://judge.example/v1?[REDACTED]' });
    expectNoSecret(inspect(judge, { depth: 5 }));
  });

  it('`sitechat check`: the report and its lines', async () => {
    expectNoSecret(formatCheckReport(configReport(shownUrl(hostile), 'x')).join('\n'));
    const lines: string[] = [];
    const log: Logger = { info: (l) => lines.push(l), warn: (l) => lines.push(l), error: (l) => lines.push(l), debug: () => undefined, out: (l) => lines.push(l) };
    const code = await checkAction({}, { env: { SITECHAT_BASE_URL: hostile, SITECHAT_API_KEY: 'k'.repeat(20) }, log });
    expect(code).not.toBe(0);
    expect(lines.join('\n')).toContain('chat.example');
    expectNoSecret(lines.join('\n'));
  });
});
