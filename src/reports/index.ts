/** Results store, summary, baseline comparison, quality gate and report renderers. */
export * from '../domain/results';
export * from '../store/store';
export { FileResultsStore } from '../store/file/resultsStore';
export { ReportFile, StoreFile } from '../store/files';
export { summarize, type SummarizeOptions } from './summary';
export { BaselineDiff, baselineRowsFor, baselineVerdict, loadBaseline, loadBaselineFromStore, type BaselineInput } from './baseline';
export { loadExplicitBaseline, selectLatestBaseline, type BaselineChoice, type BaselineTarget } from './baselineSelect';
export { collectReportContext, type PriorTurn, type ReportContext } from './context';
export { mcnemarExact, percentile, DEFAULT_ALPHA } from './stats';
export { describeGateSettings, evaluateGate, gateSettingsOf, verdictLabel, type GateOptions } from './gate';
export { renderMarkdown, renderStepSummary, type MarkdownOptions } from './markdown';
export { renderJUnit, type JUnitOptions } from './junit';
export { renderHtml, type HtmlOptions } from './html';
export { finalizeRun, renderResultsJsonl, writeReports, type FinalizeOptions, type ReportPaths, type WriteReportsOptions } from './writeReports';
export { collectHistory, HISTORY_FILE, relativeHref, RunVerdict, verdictOf, writeHistory, type HistoryEntry, type HistoryFilter } from './history';
export { renderHistoryHtml, type HistoryHtmlOptions } from './historyHtml';
