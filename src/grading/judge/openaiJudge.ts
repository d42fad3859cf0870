/**
 * The judge over the official `openai` client: one Chat Completions call per judgement, against any
 * OpenAI-compatible base URL (OpenAI, Azure's v1 API, vLLM, Ollama, LiteLLM …). The client's own retries are off:
 * retries belong to the caller (the activity retry policy, or `pacedJudge`), so each attempt is one call and what
 * is paced is what the provider counts. Every failure leaves as a `JudgeError` (or the caller's own cancellation).
 */
import { inspect } from 'node:util';
import OpenAI from 'openai';
import type { Secret } from '../../api/secret';
import { shownUrl } from '../../api/shownUrl';
import { metrics } from '../../observability/metrics/registry';
import { readCompletion, type ReplyOrigin } from './completion';
import { toJudgeError } from './openaiErrors';
import { parseJudgeReply } from './parse';
import { buildMessages } from './prompts';
import { judgeSettingsFromEnv, type JudgeSettings } from './settings';
import { JudgeConfigError } from './errors';
import { withJudgeSpan } from '../../observability/tracing/judgeSpan';
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
  private readonly origin: string;

  /** @param options.fetch replaces the HTTP client (tests). */
  constructor(private readonly settings: JudgeSettings, options: { fetch?: typeof fetch } = {}) {
    this.model = settings.model;
    this.secret = settings.apiKey;
    this.origin = new URL(settings.baseUrl).origin;
    this.client = new OpenAI({
      apiKey: settings.apiKey.reveal(),
      baseURL: settings.baseUrl,
      // Ends the wait for the headers only; `judge` passes a signal that also ends the body.
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

  /**
   * One call, over within SITECHAT_JUDGE_TIMEOUT_MS from the request to the reply's last byte: the client's own timer
   * stops at the headers, so a body that trickles in would hold the call until the activity's time-out.
   */
  judge(request: JudgeRequest, options: { signal?: AbortSignal } = {}): Promise<JudgeVerdict> {
    return withJudgeSpan(this.model, () => this.#judge(request, options));
  }

  async #judge(request: JudgeRequest, options: { signal?: AbortSignal }): Promise<JudgeVerdict> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let text: string;
    let from: ReplyOrigin;
    try {
      // A non-2xx reply is still the client's to read and throw; a 2xx body is read and checked here.
      const response = await this.client.chat.completions.create(this.requestBody(request), { signal }).asResponse();
      from = { origin: this.origin, status: response.status, contentType: response.headers.get('content-type') };
      text = await response.text();
    } catch (err) {
      const context = { origin: this.origin, timeoutMs: this.settings.timeoutMs, timedOut: deadline.aborted, cancelled: options.signal?.aborted === true };
      const error = toJudgeError(err, this.secret, context);
      metrics().judgeCalls.inc({ model: this.model, result: context.cancelled ? 'cancelled' : error instanceof Error ? error.name : 'Error' });
      throw error;
    }
    try {
      const { content, tokens } = readCompletion(text, from, this.secret);
      const verdict = { ...parseJudgeReply(this.secret.scrub(content)), tokens };
      metrics().judgeCalls.inc({ model: this.model, result: 'ok' });
      metrics().judgeTokens.inc({ model: this.model }, tokens);
      return verdict;
    } catch (err) {
      // A reply that cannot be read (a JudgeResponseError or JudgeOutputError) was still a call the provider counted.
      metrics().judgeCalls.inc({ model: this.model, result: err instanceof Error ? err.name : 'Error' });
      throw err;
    }
  }

  /** The client inside holds the key in a plain field: logging or serializing the judge shows only this (the URL as shownUrl gives it). */
  toJSON(): { model: string; baseUrl: string } {
    return { model: this.model, baseUrl: shownUrl(this.settings.baseUrl) };
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
