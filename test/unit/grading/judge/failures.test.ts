import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../../../src/api/secret';
import {
  JudgeConnectionError,
  JudgeError,
  JudgeOutputError,
  JudgeRateLimitError,
  JudgeResponseError,
} from '../../../../src/grading/judge/errors';
import { createJudge } from '../../../../src/grading/judge/openaiJudge';
import type { JudgeSettings } from '../../../../src/grading/judge/settings';
import type { JudgeRequest } from '../../../../src/grading/judge/types';
import { chatCompletion, HostileMode, startHostileJudge, type HostileJudge, type HostileOptions } from '../../../helpers/hostileJudge';

const KEY = 'sk-judge-SECRET-hostile-51c0';
const request: JudgeRequest = { kind: 'rubric', question: 'Why?', answer: 'Because.', rubric: 'explains why' };

let server: HostileJudge;
beforeAll(async () => {
  server = await startHostileJudge();
});
afterAll(async () => server?.close());

function judge(overrides: Partial<JudgeSettings> = {}) {
  return createJudge({
    baseUrl: server.baseUrl, apiKey: new Secret(KEY), model: 'm', rpm: 0, timeoutMs: 5000, maxAttempts: 1, maxRetryAfterMs: 60_000, jsonMode: true, ...overrides,
  });
}

/** What one call against the server in `mode` threw. */
async function failureIn(mode: HostileMode, options: HostileOptions = {}, settings: Partial<JudgeSettings> = {}): Promise<unknown> {
  server.setMode(mode, options);
  return judge(settings).judge(request).then(() => undefined, (err: unknown) => err);
}

describe('every failure of a judge call is a JudgeError with a class (against a hostile judge over HTTP)', () => {
  it('the control: a well-formed reply is a verdict, in one call', async () => {
    server.setMode(HostileMode.ok);
    expect(await judge().judge(request)).toMatchObject({ verdict: 'pass', tokens: 112 });
    expect(server.calls).toBe(1);
  });

  it.each<[string, HostileMode, HostileOptions, RegExp]>([
    ['an empty 200 (Content-Length: 0)', HostileMode.empty, {}, /answered 200 with an empty body, not a chat completion — check SITECHAT_JUDGE_BASE_URL$/],
    ['an empty 200 without a length', HostileMode.notJson, { body: '' }, /answered 200 with an empty body/],
    ['HTML sent as JSON', HostileMode.notJson, {}, /answered 200 with a body that is not JSON \(application\/json\): "<!doctype html>/],
    ['HTML sent as HTML', HostileMode.notJson, { contentType: 'text/html' }, /answered 200 with a body that is not JSON \(text\/html\): "<!doctype html><html><body>Welcome to nginx!<\/body><\/html>", not a chat completion/],
    ['a choice without a message', HostileMode.wrongShape, {}, /answered 200 with JSON whose first choice has no `message`/],
    ['JSON null', HostileMode.wrongShape, { body: 'null' }, /answered 200 with JSON null/],
    ['a JSON array', HostileMode.wrongShape, { body: '[]' }, /answered 200 with JSON array/],
    ['a JSON number', HostileMode.wrongShape, { body: '42' }, /answered 200 with JSON number/],
    ['an object without choices', HostileMode.wrongShape, { body: '{"id":"x"}' }, /answered 200 with JSON without `choices`/],
    ['no choices', HostileMode.wrongShape, { body: '{"choices":[]}' }, /answered 200 with JSON without `choices`/],
    ['content that is not text', HostileMode.wrongShape, { body: '{"choices":[{"message":{"content":{"verdict":"pass"}}}]}' }, /`message.content` is not text/],
  ])('%s: a retryable JudgeResponseError after one call', async (_, mode, options, message) => {
    const err = await failureIn(mode, options);
    expect(err).toBeInstanceOf(JudgeResponseError);
    expect(err).toMatchObject({ name: 'JudgeResponseError', retryable: true });
    expect((err as Error).message).toMatch(message);
    expect(server.calls).toBe(1);
  });

  it('a connection closed mid-body: a retryable JudgeConnectionError', async () => {
    const err = await failureIn(HostileMode.reset);
    expect(err).toBeInstanceOf(JudgeConnectionError);
    expect((err as Error).message).toMatch(/^the connection to the judge at http:\/\/127\.0\.0\.1:\d+ broke before the reply was complete \(UND_ERR_SOCKET\)$/);
    expect((err as JudgeError).retryable).toBe(true);
  });

  it('a body that trickles in after the headers: cut by SITECHAT_JUDGE_TIMEOUT_MS, a retryable JudgeConnectionError', async () => {
    const started = Date.now();
    const err = await failureIn(HostileMode.trickle, { trickleEveryMs: 200 }, { timeoutMs: 600 });
    expect(err).toBeInstanceOf(JudgeConnectionError);
    expect((err as Error).message).toMatch(/did not answer within 600 ms \(SITECHAT_JUDGE_TIMEOUT_MS\)$/);
    // Only a guard against a hang: the whole body would take over a minute at this pace.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('a caller\'s cancellation is passed on as it is, not made a judge failure', async () => {
    server.setMode(HostileMode.trickle, { trickleEveryMs: 200 });
    const err = await judge().judge(request, { signal: AbortSignal.timeout(300) }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(JudgeError);
  });

  it('429 with Retry-After: 3600: a JudgeRateLimitError carrying the hour (the retry loops cap it)', async () => {
    const err = await failureIn(HostileMode.rateLimited);
    expect(err).toBeInstanceOf(JudgeRateLimitError);
    expect(err).toMatchObject({ retryAfterMs: 3_600_000, retryable: true });
    expect((err as Error).message).toMatch(/^429 from the judge at .*: Rate limit reached, try again in an hour \(Retry-After: 3600000 ms\)$/);
  });

  it('a well-formed completion whose content is not a verdict stays a JudgeOutputError (the model\'s, tried twice)', async () => {
    const err = await failureIn(HostileMode.ok, { body: chatCompletion('Looks fine to me.') });
    expect(err).toBeInstanceOf(JudgeOutputError);
  });

  it('never shows the key the server echoes in garbage', async () => {
    for (const [mode, options] of [
      [HostileMode.notJson, { contentType: 'text/html', body: `<p>key ${KEY}</p>` }],
      [HostileMode.notJson, { body: `${KEY} is not JSON` }],
    ] as const) {
      const err = await failureIn(mode, options);
      expect(err).toBeInstanceOf(JudgeResponseError);
      expect((err as Error).message).toContain('[REDACTED]');
      expect((err as Error).message).not.toContain(KEY);
    }
  });
});
