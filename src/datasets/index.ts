/** Datasets: streaming CSV/JSONL readers, the row schema, validation and the paged work plan. */
export * from '../domain/dataset';
export { EMAIL_REQUIRED } from './checks';
export { KNOWN_COLUMNS, type KnownColumn } from './columns';
export { DatasetFormat, datasetFormat, detectDelimiter, normalizeDelimiter } from './format';
export { sha256File } from './hash';
export { DatasetChangedError, DatasetFileError, DatasetValidationError, formatIssue } from './issues';
export {
  buildWorkPlan,
  PLAN_FILE,
  PLAN_INDEX_FILE,
  readWorkPage,
  readWorkPlanIndex,
  removeWorkPlan,
  type WorkPlanIndex,
  type WorkPlanInfo,
  type WorkPlanOptions,
} from './plan';
export { EMAIL_PATTERN } from './schema';
export { scanDataset, walkDataset, type DatasetReadOptions, type DatasetScan } from './walk';
