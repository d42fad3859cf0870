import { defineQuery } from '@temporalio/workflow';
import type { CleanupProgress } from './types';

/** Workflow type name of the cleanup, for clients and schedules (the function lives in workflows/cleanup.ts). */
export const CLEANUP_WORKFLOW_TYPE = 'sessionCleanup';

/** Workflow id prefix of cleanups; a schedule's runs get Temporal's timestamp appended. */
export const CLEANUP_WORKFLOW_PREFIX = 'sitechat-cleanup-';

/** Failure type of a cleanup stopped by an API error; its first detail is the {@link CleanupReport}. */
export const CLEANUP_FAILED = 'CleanupFailed';

/** Live progress of a cleanup: pass, pages, offset and counts so far. */
export const cleanupProgressQuery = defineQuery<CleanupProgress>('cleanupProgress');
