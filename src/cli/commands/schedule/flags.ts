/** The flags of `sitechat schedule` and the operation they ask for (command.ts registers them, action.ts acts). */
import type { SchedulePolicyFlags } from '../../../schedules/policy';
import type { NotifyFlags } from '../../../notify/flags';
import type { CleanupFlags } from '../cleanup/options';

export interface NightlyScheduleFlags extends SchedulePolicyFlags, NotifyFlags {
  dataset: string;
  site?: string;
  baseline?: string;
  failUnder?: string;
  maxUncertainRate?: string;
  concurrency?: string;
  answerTimeout?: string;
  email?: string;
  config?: string;
  feedback?: string;
  model?: string;
  delimiter?: string;
  repeat?: string;
  confirm?: string;
  /** Create it even when no row of the dataset has anything to grade. */
  allowUngraded?: boolean;
  json?: boolean;
}
export type CleanupScheduleFlags = SchedulePolicyFlags & CleanupFlags & { json?: boolean };
export type ScheduleOp =
  | { op: 'create-nightly'; flags: NightlyScheduleFlags }
  | { op: 'create-cleanup'; flags: CleanupScheduleFlags }
  | { op: 'list'; flags: { json?: boolean } }
  | { op: 'describe'; id: string; flags: { json?: boolean } }
  | { op: 'pause' | 'unpause'; id: string; flags: { note?: string } }
  | { op: 'trigger'; id: string; flags: { overlap?: string; json?: boolean } }
  | { op: 'delete'; id: string; flags: Record<string, never> };
