import { createHash } from 'node:crypto';
import type { NotifyDestination } from '../domain/notify';

/**
 * The id a receiver de-duplicates on: one per workflow execution and destination, so every retry of the notify
 * activity (another attempt, another worker after a crash) sends the same id. Made of names only, hashed so it
 * says nothing about the run. `sitechat notify test` passes a fresh random `execution`.
 */
export function deliveryIdFor(workflowId: string, temporalRunId: string, destination: NotifyDestination): string {
  const key = [workflowId, temporalRunId, destination.kind, destination.urlEnv].join('\n');
  return createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32);
}
