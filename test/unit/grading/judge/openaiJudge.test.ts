import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Secret } from '../../../../src/api/secret';
import {
  JudgeConnectionError,
  JudgeOutputError,
  JudgeRateLimitError,
  JudgeRequestError,
  JudgeServerError,
} from '../../../../src/grading/judge/errors';
import { JUDGE_PROMPTS } from '../../../../src/grading/judge/prompts';
import { createJudge } from '../../../../src/grading/judge/openaiJudge';
import type { JudgeSettings } from '../../../../src/grading/judge/settings';
import type { JudgeRequest } from '../../../../src/grading/judge/types';
import { completion, fakeProvider, type Responder } from './fakeProvider';

const KEY = 'sk-judge-SECRET-7f3a9c';
const request: JudgeRequest = { kind: 'correctness', question: 'How much is the Personal plan?', answer: 'It costs $9.99 a month.', references: ['$9.99 per month'] };

let provider: Awaited<ReturnType<typeof fakeProvider>> | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function judgeAgainst(respond: Responder, overrides: Partial<JudgeSettings> = {}) {
  provider = await fakeProvider(respond);
  const settings: JudgeSettings = {
    baseUrl: provider.baseUrl, apiKey: new Secret(KEY), model: 'gpt-4o-mini', rpm: 0, timeoutMs: 5000, maxAttempts: 1, maxRetryAfterMs: 60_000, temperature: 0, jsonMode: true, ...overrides,
  };
  return createJudge(settings);
}

async function failure(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof Error)) throw new Error('expected a rejection');
  return err;
}

describe('OpenAIJudge over the openai client', () => {
  it('sends exactly this Chat Completions request and reads the reply', async () => {
    const judge = await judgeAgainst(() => ({ status: 200, body: completion('{"verdict":"pass","reason":"It states $9.99 per month."}') }));
    const verdict = await judge.judge(request);
    expect(verdict).toEqual({ verdict: 'pass', reason: 'It states $9.99 per month.', tokens: 231 });

    const sent = provider?.requests[0];
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: JUDGE_PROMPTS.correctness.system },
        {
          role: 'user',
          content: '<question>\nHow much is the Personal plan?\n</question>\n\n<reference>\n$9.99 per month\n</reference>\n\n<answer>\nIt costs $9.99 a month.\n</answer>',
        },
      ],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    expect(provider?.requests).toHaveLength(1);
  });

  it('leaves out temperature and JSON mode when configured so (models and servers that reject them)', async () => {
    const judge = await judgeAgainst(() => ({ status: 200, body: completion('{"verdict":"fail","reason":"no"}') }), { temperature: undefined, jsonMode: false });
    await judge.judge(request);
    expect(Object.keys(JSON.parse(provider?.requests[0]?.body ?? '{}') as object)).toEqual(['model', 'messages']);
  });

  it('reports 0 tokens when the server sends no usage', async () => {
    const body = completion('{"verdict":"fail","reason":"Wrong price."}') as Record<string, unknown>;
    delete body.usage;
    const judge = await judgeAgainst(() => ({ status: 200, body }));
    expect(await judge.judge(request)).toEqual({ verdict: 'fail', reason: 'Wrong price.', tokens: 0 });
  });

  it('makes an unparseable reply a JudgeOutputError, and makes one call only (retries are the caller\'s)', async () => {
    const judge = await judgeAgainst(() => ({ status: 200, body: completion('The answer looks right to me.') }));
    const err = await failure(judge.judge(request));
    expect(err).toBeInstanceOf(JudgeOutputError);
    expect(err.message).toMatch(/not JSON/);
    expect(provider?.requests).toHaveLength(1);
  });

  it('maps 429 (with Retry-After), 5xx, 4xx and connection errors to typed judge errors', async () => {
    let judge = await judgeAgainst(() => ({ status: 429, body: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, headers: { 'retry-after': '3' } }));
    let err = await failure(judge.judge(request));
    expect(err).toBeInstanceOf(JudgeRateLimitError);
    expect((err as JudgeRateLimitError).retryAfterMs).toBe(3000);
    expect(provider?.requests).toHaveLength(1);
    await provider?.close();

    judge = await judgeAgainst(() => ({ status: 503, body: { error: { message: 'overloaded', type: 'server_error' } } }));
    err = await failure(judge.judge(request));
    expect(err).toBeInstanceOf(JudgeServerError);
    expect(err.message).toMatch(/^503 from the judge at http:\/\/127\.0\.0\.1:\d+: overloaded$/);
    await provider?.close();

    judge = await judgeAgainst(() => ({ status: 404, body: { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' } } }));
    err = await failure(judge.judge(request));
    expect(err).toBeInstanceOf(JudgeRequestError);
    expect((err as JudgeRequestError).retryable).toBe(false);
    expect(err.message).toMatch(/404 .*does not exist — check SITECHAT_JUDGE_BASE_URL .* and SITECHAT_JUDGE_MODEL/);
    const url = provider?.baseUrl ?? '';
    await provider?.close();
    provider = undefined;

    const unreachable = createJudge({ baseUrl: url, apiKey: new Secret(KEY), model: 'm', rpm: 0, timeoutMs: 2000, maxAttempts: 1, maxRetryAfterMs: 60_000, jsonMode: true });
    err = await failure(unreachable.judge(request));
    expect(err).toBeInstanceOf(JudgeConnectionError);
    expect(err.message).toMatch(/could not reach the judge at http:\/\/127\.0\.0\.1:\d+/);
  });

  it('never lets the judge key out: not in errors that echo it, nor in settings as JSON or inspected', async () => {
    const echo: Responder = (req) => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}`, type: 'invalid_request_error', code: 'invalid_api_key' } } });
    const judge = await judgeAgainst(echo);
    const err = await failure(judge.judge(request));
    expect(err).toBeInstanceOf(JudgeRequestError);
    expect(err.message).toContain('[REDACTED]');
    expect(err.message).toContain('check SITECHAT_JUDGE_API_KEY');
    for (const text of [err.message, String(err.stack), JSON.stringify(err), inspect(err, { depth: 5 })]) expect(text).not.toContain(KEY);

    await provider?.close();
    const leaky = await judgeAgainst(() => ({ status: 200, body: completion(`{"verdict":"pass","reason":"key is ${KEY}"}`) }));
    expect((await leaky.judge(request)).reason).toBe('key is [REDACTED]');

    const settings: JudgeSettings = { baseUrl: 'http://x/v1', apiKey: new Secret(KEY), model: 'm', rpm: 1, timeoutMs: 1, maxAttempts: 1, maxRetryAfterMs: 60_000, jsonMode: true };
    expect(JSON.stringify(settings)).not.toContain(KEY);
    expect(inspect(settings)).not.toContain(KEY);
    expect(JSON.stringify(leaky)).not.toContain(KEY);
    expect(inspect(leaky, { depth: 10 })).not.toContain(KEY);
    expect(inspect({ deps: { judge: leaky } }, { depth: 10 })).not.toContain(KEY);
  });
});
