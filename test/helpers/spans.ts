import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A span's ancestors' names, nearest first, within the spans given (a parent outside them ends the chain). */
export function ancestorNames(span: ReadableSpan, spans: readonly ReadableSpan[]): string[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const names: string[] = [];
  for (let parent = span.parentSpanId; parent !== undefined; ) {
    const p = byId.get(parent);
    if (!p) break;
    names.push(p.name);
    parent = p.parentSpanId;
  }
  return names;
}

/** Every attribute value and event attribute value of the spans, as text: what a search for a secret goes through. */
export function spanText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, resource: s.resource.attributes })));
}
