import { GateVerdict } from './types';

/** A site's verdict in a multi-site run: its gate's, or `run_failed` when its run ended on an error no row could recover from. */
export const SiteVerdict = { ...GateVerdict, runFailed: 'run_failed' } as const;
export type SiteVerdict = (typeof SiteVerdict)[keyof typeof SiteVerdict];

/** `SiteRunRef.failure.type` of a site whose run was never started because the run was cancelled first. */
export const CANCELLED_BEFORE_START = 'CancelledBeforeStart';
