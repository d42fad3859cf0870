import type { ResolvedOptions } from '../options';
import { bodyObject } from '../http/types';

/** A validated chat body (spec §4.3). */
export interface ChatBody {
  message: string;
  /** Absent or '' means "create a new session". */
  sessionId?: string;
  email?: string;
  model?: string;
  responseLanguage?: string;
  uiLocale?: string;
}

/** Longest accepted caller-chosen session id. */
const MAX_SESSION_ID_LENGTH = 256;
const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

/** An optional string field: absent and `null` are undefined; any other non-string is invalid. */
function optionalString(body: Record<string, unknown>, field: string): string | undefined | false {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : false;
}

/**
 * Validates a chat body; undefined means 400 `invalid payload` (message missing, blank or too long,
 * invalid JSON, a field of the wrong type, a malformed email, or no email for a new session).
 */
export function parseChatBody(raw: unknown, options: ResolvedOptions): ChatBody | undefined {
  const body = bodyObject(raw);
  if (!body) return undefined;
  const message = body.message;
  if (typeof message !== 'string' || message.trim().length === 0 || message.length > options.maxMessageLength) return undefined;
  const fields = {
    sessionId: optionalString(body, 'session_id'),
    email: optionalString(body, 'email'),
    model: optionalString(body, 'model'),
    responseLanguage: optionalString(body, 'response_language'),
    uiLocale: optionalString(body, 'ui_locale'),
  };
  if (Object.values(fields).some((v) => v === false)) return undefined;
  const { sessionId, email, model, responseLanguage, uiLocale } = fields as Record<keyof typeof fields, string | undefined>;
  if (sessionId !== undefined && sessionId.length > MAX_SESSION_ID_LENGTH) return undefined;
  if (email !== undefined && email !== '' && !EMAIL_RE.test(email)) return undefined;
  if (!sessionId && !email) return undefined;
  const out: ChatBody = { message };
  if (sessionId) out.sessionId = sessionId;
  if (email) out.email = email;
  if (model) out.model = model;
  if (responseLanguage) out.responseLanguage = responseLanguage;
  if (uiLocale) out.uiLocale = uiLocale;
  return out;
}
