import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { WRONG_API_ERROR } from '../src/temporal/wrongApi';

/** Why an activity failed, in the words the API used: "401 invalid_api_key …"; `apiError` is the API's `error` string. */
export function describeFailure(err: unknown): { message: string; type: string; status?: number; apiError?: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as { status?: number; error?: string } | undefined;
    return { message: cause.message, type: cause.type ?? 'Error', status: details?.status, apiError: details?.error };
  }
  if (cause instanceof Error) return { message: cause.message, type: cause.name };
  return { message: String(cause), type: 'Error' };
}

/**
 * Errors that no row can recover from: a bad key, a plan without API access, an unknown site, no worker of the run's
 * API (workflows/apiRouting.ts). They end the run at once with the reason instead of failing every row the same way.
 */
export function isFatal(failure: { type: string }): boolean {
  return ['AuthenticationError', 'PermissionDeniedError', 'SiteNotFoundError', WRONG_API_ERROR].includes(failure.type);
}
