/** `sitechat check`: connectivity and credential diagnosis against the Site Chat API, without Temporal. */
export { CheckOutcome, diagnose, type CheckTarget, type Diagnosis } from './diagnose';
export { classifyNetworkError, NetworkKind } from './network';
export { configReport, formatCheckReport, runChecks, type CheckReport, type CheckResult, type RunChecksOptions } from './run';
