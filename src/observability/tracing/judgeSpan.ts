import { SpanKind } from '@opentelemetry/api';
import { SpanAttr } from './attributes';
import { inSpan } from './spanError';
import { activeTracing } from './state';

/**
 * A span per judge model call (`judge chat.completions`), with the model, the tokens the provider reported and the
 * verdict; never the prompt, the answer or the judge's reasoning. With tracing off it calls `fn` and nothing else.
 */
export function withJudgeSpan<T extends { tokens: number; verdict: string }>(model: string, fn: () => Promise<T>): Promise<T> {
  const tracing = activeTracing();
  if (tracing === undefined) return fn();
  return tracing.tracer.startActiveSpan('judge chat.completions', { kind: SpanKind.CLIENT, attributes: { [SpanAttr.judgeModel]: model } }, (span) => inSpan(span, async () => {
    // A failure carries no prompt text, and its message is scrubbed of the key (toJudgeError).
    const verdict = await fn();
    span.setAttributes({ [SpanAttr.judgeTokens]: verdict.tokens, [SpanAttr.judgeVerdict]: verdict.verdict });
    return verdict;
  }));
}
