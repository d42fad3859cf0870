/**
 * Session cleanup: which sessions to close (pure rules), the paging bookkeeping of the `sessionCleanup` workflow,
 * the report, and the CLI's flag parsing. Everything but `options` is workflow-safe.
 */
export * from './types';
export { judge, matchedSession, selectPage, Verdict, type ListedSession, type SelectOptions } from './select';
export { cleanupSettings, CleanupDefaults, MAX_PAGE_SIZE, selectionRule, validateCleanupInput, type ResolvedCleanupSettings } from './rule';
export { isFatalCloseError, newCursor, nextPageInput, nextStep, recordClose, startPass, takePage, type NextStep } from './cursor';
export { CLOSE_LANES, FatalCloseError, pageThrough, type CleanupPorts } from './loop';
export { buildCleanupReport, formatCleanupReport, type ReportMeta } from './report';
export { cleanupInputFromFlags, CleanupOptionError, DEFAULT_IDLE_FOR, parseInstant, type CleanupFlags } from '../cli/commands/cleanup/options';
export { CLEANUP_FAILED, CLEANUP_WORKFLOW_PREFIX, CLEANUP_WORKFLOW_TYPE, cleanupProgressQuery } from './workflow';
