/**
 * The judge over the official `openai` client: one Chat Completions call per judgement, against any
 * OpenAI-compatible base URL (OpenAI, Azure's v1 API, vLLM, Ollama, LiteLLM …). The client's own retries are off:
 * retries belong to the caller (the activity retry policy, or `pacedJudge`), so each attempt is one call and what
 * is paced is what the provider counts.
 */
import { inspect } from 'node:util';
import OpenAI from 'openai';
import type { Secret } from '../../api/secret';
import { JudgeOutputError } from './errors';
import { toJudgeError } from './openaiErrors';
import { parseJudgeReply } from './parse';
import { buildMessages } from './prompts';
import { judgeSettingsFromEnv, type JudgeSettings } from './settings';
import { JudgeConfigError } from './errors';
import type { Judge, JudgeRequest, JudgeVerdict } from './types';

/** The request body the judge sends (what tests pin). */
export interface JudgeRequestBody {
  model: string;
  messages: { role: 'system' | 'user'; content: string }[];
  temperature?: number;
  response_format?: { type: 'json_object' };
}

export class OpenAIJudge implements Judge {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly secret: Secret;
  private readonly context: { origin: string; timeoutMs: number };

  /** @param options.fetch replaces the HTTP client (tests). */
  constructor(private readonly settings: JudgeSettings, options: { fetch?: typeof fetch } = {}) {
    this.model = settings.model;
    this.secret = settings.apiKey;
    this.context = { origin: new URL(settings.baseUrl).origin, timeoutMs: settings.timeoutMs };
    this.client = new OpenAI({
      apiKey: settings.apiKey.reveal(),
      baseURL: settings.baseUrl,
      timeout: settings.timeoutMs,
      maxRetries: 0,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** The body for a request: the prompt, the model, temperature and JSON mode as configured. */
  requestBody(request: JudgeRequest): JudgeRequestBody {
    const body: JudgeRequestBody = { model: this.model, messages: buildMessages(request) };
    if (this.settings.temperature !== undefined) body.temperature = this.settings.temperature;
    if (this.settings.jsonMode) body.response_format = { type: 'json_object' };
    return body;
  }

  async judge(request: JudgeRequest, options: { signal?: AbortSignal } = {}): Promise<JudgeVerdict> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(this.requestBody(request), { signal: options.signal });
    } catch (err) {
      throw toJudgeError(err, this.secret, this.context);
    }
    const choice = completion.choices?.[0];
    if (!choice) throw new JudgeOutputError('judge reply has no choices', '');
    const parsed = parseJudgeReply(this.secret.scrub(choice.message?.content ?? ''));
    return { ...parsed, tokens: completion.usage?.total_tokens ?? 0 };
  }

  /** The client inside holds the key in a plain field: logging or serializing the judge shows only this. */
  toJSON(): { model: string; baseUrl: string } {
    return { model: this.model, baseUrl: this.settings.baseUrl };
  }

  [inspect.custom](): string {
    return `OpenAIJudge ${JSON.stringify(this.toJSON())}`;
  }
}

/** The judge of the settings. */
export function createJudge(settings: JudgeSettings, options: { fetch?: typeof fetch } = {}): OpenAIJudge {
  return new OpenAIJudge(settings, options);
}

/** The judge configured by `SITECHAT_JUDGE_*`; throws a `JudgeConfigError` naming what is missing. */
export function createJudgeFromEnv(env: NodeJS.ProcessEnv = process.env): OpenAIJudge {
  const settings = judgeSettingsFromEnv(env);
  if (!settings) throw new JudgeConfigError('no judge configured: set SITECHAT_JUDGE_BASE_URL, SITECHAT_JUDGE_API_KEY and SITECHAT_JUDGE_MODEL');
  return createJudge(settings);
}
