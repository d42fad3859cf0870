/**
 * `POST /v1/chat/completions`: an OpenAI-compatible route for the runner's LLM judge. A deterministic TEST DOUBLE,
 * not a model (see `../judge/verdict.ts`): it answers the runner's judge prompts with a `chat.completion` whose
 * content is `{"verdict", "reason"}` JSON, and usage counts of ~4 characters per token. Any bearer key is accepted,
 * but one is required. Errors use the OpenAI error shape `{ error: { message, type, code, param } }`.
 */
import { bodyObject, INVALID_JSON, reply, type Reply } from '../http/types';
import type { Simulator } from '../simulator';
import { lastUserText, parseJudgePrompt } from '../judge/prompt';
import { simJudge } from '../judge/verdict';

/** An error body shaped like the OpenAI API's. */
export function openAiError(status: number, message: string, type: string, code: string | null = null, headers?: Record<string, string>): Reply {
  return reply(status, { error: { message, type, param: null, code } }, headers);
}

/** 401 unless the request carries `Authorization: Bearer <something>`. */
export function checkBearer(header: string | string[] | undefined): Reply | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const token = /^Bearer\s+(\S.*)$/iu.exec(value ?? '')?.[1]?.trim();
  if (token) return undefined;
  return openAiError(401, 'You did not provide an API key: send it as `Authorization: Bearer <key>`.', 'invalid_request_error', 'invalid_api_key');
}

const tokensOf = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export function chatCompletions(sim: Simulator, raw: unknown): Reply {
  if (raw === INVALID_JSON) return openAiError(400, 'The request body is not valid JSON.', 'invalid_request_error');
  const body = bodyObject(raw);
  if (!body || typeof body.model !== 'string' || body.model === '') {
    return openAiError(400, 'you must provide a model parameter', 'invalid_request_error', null);
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return openAiError(400, "'messages' must be a non-empty array", 'invalid_request_error');
  }
  const text = lastUserText(body.messages);
  const input = text === undefined ? undefined : parseJudgePrompt(text);
  if (!input) {
    return openAiError(400, 'the simulator judges only sitechat judge prompts (<answer> with <rubric> or <reference> sections)', 'invalid_request_error');
  }
  const decision = simJudge(input);
  const content = JSON.stringify(decision);
  const prompt = tokensOf(body.messages.map((m: { content?: unknown }) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? ''))).join('\n'));
  const completion = tokensOf(content);
  const n = ++sim.stats.counters.judge.calls;
  sim.stats.counters.judge.verdicts[decision.verdict]++;
  return reply(200, {
    id: `chatcmpl-sim-${n}`,
    object: 'chat.completion',
    created: Math.floor(sim.clock.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  });
}
