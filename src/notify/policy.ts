/**
 * The notify activity's retry settings, shared by the workflow's proxy (workflows/notifying.ts) and the activity,
 * which records a retryable failure as final on the last attempt instead of throwing. Workflow-safe.
 */
export const NOTIFY_MAX_ATTEMPTS = 8;
/** Longest wait a receiver's Retry-After gets; a longer one is cut to this. */
export const NOTIFY_MAX_RETRY_AFTER_MS = 5 * 60_000;
/** How often the activity heartbeats while it sends, well inside the proxy's heartbeat timeout. */
export const NOTIFY_HEARTBEAT_MS = 2_000;
