/** Results store, summary, baseline comparison, quality gate and report renderers. */
export * from './types';
export * from './store';
export { FileResultsStore } from './fileStore';
export { ReportFile, StoreFile } from './files';
export { summarize, type SummarizeOptions } from './summary';
export { BaselineDiff, baselineVerdict, findLatestRun, loadBaseline, loadBaselineFromStore, type BaselineInput } from './baseline';
export { mcnemarExact, percentile, DEFAULT_ALPHA } from './stats';
export { evaluateGate, type GateOptions } from './gate';
export { renderMarkdown, type MarkdownOptions } from './markdown';
export { renderJUnit, type JUnitOptions } from './junit';
export { renderHtml, type HtmlOptions } from './html';
export { finalizeRun, renderResultsJsonl, writeReports, type FinalizeOptions, type ReportPaths } from './writeReports';
export { collectHistory, HISTORY_FILE, relativeHref, RunVerdict, verdictOf, writeHistory, type HistoryEntry, type HistoryFilter } from './history';
export { renderHistoryHtml, type HistoryHtmlOptions } from './historyHtml';
