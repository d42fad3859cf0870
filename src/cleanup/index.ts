/**
 * Session cleanup: which sessions to close (pure rules), the paging bookkeeping of the `sessionCleanup` workflow,
 * and the report. Workflow-safe (the CLI's flags are parsed in src/cli/commands/cleanup/options.ts).
 */
export * from './types';
export { judge, matchedSession, selectPage, Verdict, type ListedSession, type SelectOptions } from './select';
export { cleanupSettings, CleanupDefaults, MAX_PAGE_SIZE, selectionRule, validateCleanupInput, type ResolvedCleanupSettings } from './rule';
export { isFatalCloseError, newCursor, nextPageInput, nextStep, recordClose, startPass, takePage, type NextStep } from './cursor';
export { CLOSE_LANES, FatalCloseError, pageThrough, type CleanupPorts } from './loop';
export { buildCleanupReport, formatCleanupReport, type ReportMeta } from './report';
export { CLEANUP_FAILED, CLEANUP_WORKFLOW_PREFIX, CLEANUP_WORKFLOW_TYPE, cleanupProgressQuery } from './workflow';
