import type { NotifyFlags } from '../../../notify/flags';

/** The flags of `sitechat run` and `sitechat backfill`, as commander gives them (command.ts registers them). */
export interface RunFlags extends NotifyFlags {
  site?: string;
  config?: string;
  concurrency?: string;
  feedback?: string;
  answerTimeout?: string;
  email?: string;
  model?: string;
  baseline?: string;
  failUnder?: string;
  maxErrorRate?: string;
  maxUncertainRate?: string;
  allowSideEffectFailures?: boolean;
  /** Evaluation runs only: start even when no row has anything to grade. */
  allowUngraded?: boolean;
  reaskFailed?: string;
  out?: string;
  delimiter?: string;
  detach?: boolean;
  json?: boolean;
  worker: boolean;
  /** Backfill only. */
  mode?: 'async' | 'sync';
  closeSessions?: boolean;
  resume?: string;
  /** Evaluation runs only. */
  repeat?: string;
  confirm?: string;
  /** Matrix runs only: the variant no other may beat significantly. */
  reference?: string;
}
