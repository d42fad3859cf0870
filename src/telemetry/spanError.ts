import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { SpanAttr } from './attributes';

/**
 * Marks a span failed by `err`: its class as `error.type`, an exception event and status ERROR. The callers' errors
 * are already scrubbed (the API client's and the judge's never carry the key or the prompt).
 */
export function recordSpanError(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.setAttribute(SpanAttr.errorType, error.name);
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}
