import type { NotifyVerdict } from './message';
import { NotifyTrigger } from '../domain/notify';

/**
 * Which trigger, if any, sends a notification for this end. The specific ones win over `always` so the message says
 * why it matters: a cancelled end fires `cancelled`, a failed one `failed`, a pass after a failed previous run
 * `recovered` (a pass with no failed run before it is not a recovery); otherwise `always` when asked for.
 *
 * @param previousFailed the last compatible run before this one failed (`previousCompatibleRun`); undefined: none known
 */
export function firedTrigger(on: readonly NotifyTrigger[], verdict: NotifyVerdict, previousFailed: boolean | undefined): NotifyTrigger | undefined {
  const wants = (t: NotifyTrigger): boolean => on.includes(t);
  if (verdict === 'cancelled' && wants(NotifyTrigger.cancelled)) return NotifyTrigger.cancelled;
  if (verdict === 'failed' && wants(NotifyTrigger.failed)) return NotifyTrigger.failed;
  const passed = verdict === 'passed' || verdict === 'no_threshold';
  if (passed && previousFailed === true && wants(NotifyTrigger.recovered)) return NotifyTrigger.recovered;
  return wants(NotifyTrigger.always) ? NotifyTrigger.always : undefined;
}
