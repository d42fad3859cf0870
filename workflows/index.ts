// The workflow types a worker registers: each exported function by its name.
export { evaluationRun, backfillRun } from './run';
export { runChunk } from './chunk';
export { multiSiteRun } from './multiSite';
export { sessionCleanup } from './cleanup';
export { labelFeedback } from './labelFeedback';
