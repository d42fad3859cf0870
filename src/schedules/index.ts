/** Temporal Schedules for nightly evaluations and session cleanups: building, managing and showing them. */
export {
  cleanupSchedule, EVALUATION_WORKFLOW_PREFIX, EVALUATION_WORKFLOW_TYPE, MEMO_KEY, nightlySchedule, ScheduleKind, type SitechatMemo,
} from './build';
export { formatScheduleDetails, formatScheduleList } from './format';
export { recentOutcomes, runIdOf, type RecentRunOutcome } from './outcomes';
export { ScheduleOperationError, Schedules, type ScheduleDetails, type ScheduleView } from './manage';
export {
  checkCron, checkScheduleId, defaultScheduleId, OverlapFlag, schedulePolicies, ScheduleUsageError, type SchedulePolicyFlags,
} from './policy';
