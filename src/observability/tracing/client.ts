import type { ClientOptions } from '@temporalio/client';
import { activeTracing } from './state';

/** A Temporal client's interceptors: with tracing on, workflow starts (and signals, queries) carry the trace. */
export function tracedClientOptions(): Pick<ClientOptions, 'interceptors'> {
  const tracing = activeTracing();
  return tracing === undefined ? {} : { interceptors: { workflow: [tracing.workflowClientInterceptor] } };
}
