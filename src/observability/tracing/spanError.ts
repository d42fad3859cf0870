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

/**
 * Runs `work` as `span`'s operation: the span ends when it settles, and a failure marks the span
 * (`recordSpanError`) before it is rethrown.
 */
export async function inSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    recordSpanError(span, err);
    throw err;
  } finally {
    span.end();
  }
}
