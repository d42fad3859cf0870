import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../src/api/secret';
import { JudgeRateLimitError, JudgeRequestError, JudgeServerError } from '../../../src/grading/judge/errors';
import { createJudge } from '../../../src/grading/judge/openaiJudge';
import { buildMessages } from '../../../src/grading/judge/prompts';
import type { JudgeRequest } from '../../../src/grading/judge/types';
import { simJudge } from '../../../src/sim/judge/verdict';
import { useSimulator } from './helpers';

const sim = useSimulator();

function judge(baseUrl = sim().sim.judgeBaseUrl) {
  return createJudge({ baseUrl, apiKey: new Secret('any-key'), model: 'sim-judge', rpm: 0, timeoutMs: 5000, maxAttempts: 1, maxRetryAfterMs: 60_000, temperature: 0, jsonMode: true });
}

const price: JudgeRequest = { kind: 'correctness', question: 'How much is Personal?', answer: 'The Personal plan costs $9.99 per month.', references: ['$9.99 per month'] };

describe('simulator judge (a deterministic test double)', () => {
  it('correctness passes when the answer holds most content words of some reference', () => {
    expect(simJudge({ ...price }).verdict).toBe('pass');
    expect(simJudge({ ...price, answer: 'It is free.' })).toEqual({ verdict: 'fail', reason: 'The answer has 0 of 4 content words of the reference; missing: 9, 99, per, month.' });
    expect(simJudge({ ...price, answer: 'It is free.', references: ['$9.99 per month', 'free'] })).toMatchObject({ verdict: 'pass', reason: expect.stringContaining('reference 2') });
  });

  it('rubric checks the criteria words, leaving instruction words aside', () => {
    const base = { kind: 'rubric' as const, question: 'Refunds?', answer: 'You can get a refund within 14 days of purchase.' };
    expect(simJudge({ ...base, rubric: 'mentions the 14 day refund window' })).toEqual({ verdict: 'pass', reason: 'The answer has 3 of 4 content words of the rubric; missing: window.' });
    expect(simJudge({ ...base, rubric: 'mentions the 14 day refund window and the store credit option' }).verdict).toBe('fail');
    expect(simJudge({ ...base, rubric: 'should mention it' })).toEqual({ verdict: 'fail', reason: 'The rubric names nothing this judge can check.' });
  });

  it('rubric: a negated clause is met unless the answer says what it rules out; manner words are set aside, and said so', () => {
    const rubric = 'is polite and does not promise refunds';
    const base = { kind: 'rubric' as const, question: 'Refunds?', rubric };
    // The README's sample rubric: an answer about refunds that promises nothing meets it; one that promises one does not.
    expect(simJudge({ ...base, answer: 'Refunds are available within 14 days of purchase.' })).toEqual({
      verdict: 'pass', reason: 'The rubric asks for no content words; 1 of 1 ruled-out thing is absent; manner (polit) is not checked by this test double.',
    });
    expect(simJudge({ ...base, answer: 'We promise a full refund, always.' })).toEqual({
      verdict: 'fail', reason: 'The rubric asks for no content words; it says what the rubric rules out (promis, refund); manner (polit) is not checked by this test double.',
    });
    expect(simJudge({ ...base, rubric: 'mentions the 14 day refund window, without promising store credit', answer: 'You can get a refund within 14 days.' }).verdict).toBe('pass');
    expect(simJudge({ ...base, rubric: 'mentions the 14 day refund window, without promising store credit', answer: 'A refund within 14 days, or we promise store credit.' }).verdict).toBe('fail');
    // A point inside a price is no clause break: the whole negated clause is one criterion.
    expect(simJudge({ ...base, rubric: 'does not cost $9.99 per month', answer: 'The plan costs $9 per year.' }).verdict).toBe('pass');
    expect(simJudge({ ...base, rubric: 'does not cost $9.99 per month', answer: 'It costs $9.99 per month.' }).verdict).toBe('fail');
  });

  it('answers the runner\'s judge through the openai client with a chat.completion and usage; stats count calls', async () => {
    expect(await judge().judge(price)).toEqual({ verdict: 'pass', reason: 'The answer has 4 of 4 content words of the reference.', tokens: expect.any(Number) });
    const res = await request(`${sim().sim.judgeBaseUrl}/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x', messages: buildMessages({ ...price, answer: 'No idea.' }) }),
    });
    const body = (await res.body.json()) as { object: string; model: string; choices: { message: { content: string }; finish_reason: string }[]; usage: Record<string, number> };
    expect(res.statusCode).toBe(200);
    expect(body).toMatchObject({ object: 'chat.completion', model: 'x', choices: [{ finish_reason: 'stop' }] });
    expect(JSON.parse(body.choices[0]?.message.content ?? '')).toMatchObject({ verdict: 'fail' });
    expect(body.usage.total_tokens).toBe((body.usage.prompt_tokens ?? 0) + (body.usage.completion_tokens ?? 0));
    const stats = sim().sim.stats();
    expect(stats.judge).toEqual({ calls: 2, verdicts: { pass: 1, fail: 1 } });
    expect(stats.requests['judge.chat']).toEqual({ 200: 2 });
  });

  it('requires a bearer key (any), a model and a sitechat judge prompt', async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      request(`${sim().sim.judgeBaseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const noKey = await post({}, { model: 'x', messages: buildMessages(price) });
    expect(noKey.statusCode).toBe(401);
    expect(await noKey.body.json()).toMatchObject({ error: { code: 'invalid_api_key', type: 'invalid_request_error' } });
    expect((await post({ authorization: 'Bearer k' }, { messages: buildMessages(price) })).statusCode).toBe(400);
    const free = await post({ authorization: 'Bearer k' }, { model: 'x', messages: [{ role: 'user', content: 'hello' }] });
    expect(free.statusCode).toBe(400);
    await expect(judge(`${sim().sim.origin}/nope/v1`).judge(price)).rejects.toBeInstanceOf(JudgeRequestError);
  });

  it('injects 429 bursts and 500s on `judge.chat` so retries can be tested', async () => {
    sim().sim.setFaults({ 'judge.chat': { rateLimitBurst: 1 } });
    const err = await judge().judge(price).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JudgeRateLimitError);
    expect((err as JudgeRateLimitError).retryAfterMs).toBe(1000);
    expect((await judge().judge(price)).verdict).toBe('pass');
    sim().sim.setFaults({ 'judge.chat': { failRate: 1 } });
    await expect(judge().judge(price)).rejects.toBeInstanceOf(JudgeServerError);
    expect(sim().sim.stats().requests['judge.chat']).toEqual({ 200: 1, 429: 1, 500: 1 });
  });
});
