import { context } from '@opentelemetry/api';
import { activeTracing } from './state';

/** Runs `fn` in a trace context captured earlier. */
export type InContext = <T>(fn: () => T) => T;

const direct: InContext = (fn) => fn();

/**
 * The caller's trace context, for work done later on its behalf by a loop shared between callers (the status poller
 * polls every watched request from one timer): the calls then belong to the activity that asked for them, not to
 * whichever one happened to arm the timer. With tracing off it runs `fn` as is.
 */
export function carryContext(): InContext {
  if (activeTracing() === undefined) return direct;
  const captured = context.active();
  return (fn) => context.with(captured, fn);
}
