import { context, SpanKind, type Attributes, type Span } from '@opentelemetry/api';
import type { Endpoint } from '../../api/endpoints';
import { attemptOf } from './attempt';
import { SpanAttr } from './attributes';
import { inSpan } from './spanError';
import type { Tracing } from './state';

export interface ApiCallForSpan {
  endpoint: Endpoint;
  params: Readonly<Record<string, unknown>>;
  body?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** Question or answer text, only when SITECHAT_TRACE_CONTENT asks for it, cut to the configured length. */
function contentAttribute(tracing: Tracing, key: string, value: unknown): Attributes {
  const s = text(value);
  if (!tracing.settings.content || s === undefined) return {};
  return { [key]: s.length > tracing.settings.contentMaxChars ? `${s.slice(0, tracing.settings.contentMaxChars)}…` : s };
}

/**
 * The span of one Site Chat API call, named `METHOD route` (`POST /m2m/sites/{site_id}/chat/async`) as OpenTelemetry's
 * HTTP conventions name client spans: the route template, never the URL with ids in it. It records the site, the
 * API's request id when the call has one (in its path, its body or its response), the activity attempt it belongs to,
 * the status, and an error's class. Never a header (the key is one), an email, or question and answer text unless
 * SITECHAT_TRACE_CONTENT is set. Runs `fn` with the span active.
 */
export function withApiSpan<T>(tracing: Tracing, origin: URL, call: ApiCallForSpan, fn: (span: Span) => Promise<T>): Promise<T> {
  const { endpoint, params, body } = call;
  const attributes: Attributes = {
    [SpanAttr.httpMethod]: endpoint.method,
    [SpanAttr.httpRoute]: endpoint.path,
    [SpanAttr.serverAddress]: origin.hostname,
    [SpanAttr.serverPort]: Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)),
  };
  const site = text(params.site_id);
  if (site) attributes[SpanAttr.site] = site;
  const requestId = text(params.request_id) ?? text(field(body, 'request_id'));
  if (requestId) attributes[SpanAttr.requestId] = requestId;
  const attempt = attemptOf(context.active());
  if (attempt !== undefined) attributes[SpanAttr.attempt] = attempt;
  Object.assign(attributes, contentAttribute(tracing, SpanAttr.question, field(body, 'message')));
  return tracing.tracer.startActiveSpan(`${endpoint.method} ${endpoint.path}`, { kind: SpanKind.CLIENT, attributes }, (span) => inSpan(span, async () => {
    // A failure's class names what happened (RateLimitError …).
    const value = await fn(span);
    const responseId = text(field(value, 'request_id'));
    if (responseId && !requestId) span.setAttribute(SpanAttr.requestId, responseId);
    span.setAttributes(contentAttribute(tracing, SpanAttr.answer, field(value, 'answer')));
    return value;
  }));
}

/** The HTTP status, once the response came (errors included: a 429 is a response). */
export function setApiStatus(span: Span | undefined, status: number): void {
  span?.setAttribute(SpanAttr.httpStatus, status);
}
