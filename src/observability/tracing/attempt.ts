import { createContextKey, type Context } from '@opentelemetry/api';

/** The Temporal activity attempt an API call belongs to, in the OpenTelemetry context of the activity's execution. */
const ATTEMPT = createContextKey('sitechat.activity.attempt');

export function withAttempt(ctx: Context, attempt: number): Context {
  return ctx.setValue(ATTEMPT, attempt);
}

export function attemptOf(ctx: Context): number | undefined {
  const value = ctx.getValue(ATTEMPT);
  return typeof value === 'number' ? value : undefined;
}
