import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { SITE_NOT_FOUND } from '../src/api/errors';
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
export function isFatal(failure: { type: string; apiError?: string }): boolean {
  if (failure.type === 'AuthenticationError' || failure.type === 'PermissionDeniedError' || failure.type === 'SiteNotFoundError') return true;
  if (failure.type === WRONG_API_ERROR) return true;
  // Failures recorded before SiteNotFoundError existed: a NotFoundError with the API's `site not found`.
  return failure.type === 'NotFoundError' && failure.apiError === SITE_NOT_FOUND;
}
