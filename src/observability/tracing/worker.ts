import { context, trace, type Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, WorkerOptions } from '@temporalio/worker';
import { withAttempt } from './attempt';
import { SpanAttr } from './attributes';

/**
 * A span per activity execution (`RunActivity:ask`), the child of the workflow's `StartActivity:ask` span whose context
 * came in the activity's headers; its API calls' spans are its children. Adds the site of the input and the attempt,
 * which each API call's span repeats.
 */
function activityTracing(tracer: Tracer): ActivityInterceptorsFactory[] {
  return [
    (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
    (ctx) => {
      let ids: { trace_id: string; span_id: string } | undefined;
      return {
        inbound: {
          execute: (input, next) => {
            const arg: unknown = input.args[0];
            const span = trace.getActiveSpan();
            span?.setAttribute(SpanAttr.attempt, ctx.info.attempt);
            if (typeof arg === 'object' && arg !== null && 'siteId' in arg && typeof arg.siteId === 'string') span?.setAttribute(SpanAttr.site, arg.siteId);
            const sc = span?.spanContext();
            if (sc) ids = { trace_id: sc.traceId, span_id: sc.spanId };
            return context.with(withAttempt(context.active(), ctx.info.attempt), () => next(input));
          },
        },
        outbound: {
          // The SDK logs an activity's end (`Activity failed` among them) after its span is no longer active, so
          // Temporal's interceptor adds no ids to it; these are the execution's own.
          getLogAttributes: (attributes, next) => next(ids === undefined ? attributes : { ...ids, ...attributes }),
        },
      };
    },
  ];
}

/**
 * What a traced worker adds: the activity interceptors, and the sink through which the workflow interceptors (in the
 * traced bundle, see `bundleWorkflows`) hand their spans out of the sandbox to `spanProcessor`.
 */
export function tracingWorkerOptions(tracer: Tracer, spanProcessor: SpanProcessor, resource: Resource): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  return {
    interceptors: { activity: activityTracing(tracer) },
    sinks: { exporter: makeWorkflowExporter(spanProcessor, resource) },
  };
}
