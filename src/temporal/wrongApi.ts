/**
 * The refusal of a run's task by a worker of another API, as workers raise it (src/worker/apiGuard.ts) and workflows
 * recognise it (workflows/apiRouting.ts). Plain values only: workflow code imports this.
 */
import type { ApiIdentity } from '../api/identity';

/** The failure type of a task refused by a worker of another API than the run's. */
export const WRONG_API_ERROR = 'WrongApiError';

/** What a refusal carries: both APIs, by name (never a key). */
export interface WrongApiDetails {
  runApi: ApiIdentity;
  workerApi: ApiIdentity;
}
