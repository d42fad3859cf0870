import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** Why an activity failed, in the words the API used: "401 invalid_api_key …". */
export function describeFailure(err: unknown): { message: string; type: string; status?: number } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as { status?: number } | undefined;
    return { message: cause.message, type: cause.type ?? 'Error', status: details?.status };
  }
  if (cause instanceof Error) return { message: cause.message, type: cause.name };
  return { message: String(cause), type: 'Error' };
}

/**
 * Errors that no row can recover from: a bad key, a plan without API access, an unknown site. They end the
 * run at once with the API's reason instead of failing every row the same way.
 */
export function isFatal(failure: { type: string; message: string }): boolean {
  if (failure.type === 'AuthenticationError' || failure.type === 'PermissionDeniedError') return true;
  return failure.type === 'NotFoundError' && failure.message.includes('site not found');
}
