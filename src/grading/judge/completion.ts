/**
 * The checked reading of a 2xx reply's body. The body is read here rather than by the `openai` client, which returns
 * whatever it held — undefined for an empty JSON body, a string for another content type, any JSON value — typed as
 * a completion: read unchecked, an empty `200` was a `TypeError` no judge retry limit counted. Here every reply that
 * is not a chat completion is a `JudgeResponseError`, its text scrubbed of the key.
 */
import type { Secret } from '../../api/secret';
import { JudgeResponseError } from './errors';

/** What a judgement needs of a completion. */
export interface CompletionText {
  /** The first choice's message text ('' when the model sent none: then it is the reply parser's to reject). */
  content: string;
  /** `usage.total_tokens`, 0 when absent. */
  tokens: number;
}

/** Where the reply came from, for the error text. */
export interface ReplyOrigin {
  origin: string;
  status: number;
  contentType: string | null;
}

export function readCompletion(text: string, from: ReplyOrigin, secret: Secret): CompletionText {
  const fail = (what: string): JudgeResponseError =>
    new JudgeResponseError(`the judge at ${from.origin} answered ${from.status} with ${what}, not a chat completion — check SITECHAT_JUDGE_BASE_URL`, from.status);
  if (text.trim() === '') throw fail('an empty body');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail(`a body that is not JSON (${from.contentType ?? 'no content type'}): ${snippet(secret.scrub(text))}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail(`JSON ${body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body}`);
  const { choices, usage } = body as { choices?: unknown; usage?: unknown };
  if (!Array.isArray(choices) || choices.length === 0) throw fail('JSON without `choices`');
  const message = (choices[0] as { message?: unknown } | null)?.message;
  if (typeof message !== 'object' || message === null) throw fail('JSON whose first choice has no `message`');
  const content = (message as { content?: unknown }).content;
  if (content !== undefined && content !== null && typeof content !== 'string') throw fail('JSON whose `message.content` is not text');
  const total = (usage as { total_tokens?: unknown } | null | undefined)?.total_tokens;
  return { content: content ?? '', tokens: typeof total === 'number' && Number.isFinite(total) && total >= 0 ? total : 0 };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 119)}…` : flat);
}
