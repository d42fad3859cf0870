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
    (ctx) => ({
      inbound: {
        execute: (input, next) => {
          const arg: unknown = input.args[0];
          const span = trace.getActiveSpan();
          span?.setAttribute(SpanAttr.attempt, ctx.info.attempt);
          if (typeof arg === 'object' && arg !== null && 'siteId' in arg && typeof arg.siteId === 'string') span?.setAttribute(SpanAttr.site, arg.siteId);
          return context.with(withAttempt(context.active(), ctx.info.attempt), () => next(input));
        },
      },
    }),
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
