import { ConfigurationError } from '../api/errors';
import { CleanupOptionError } from './commands/cleanup/options';
import { PayloadKeysError } from '../codec/errors';
import { ConfigError as RunConfigError } from '../config/load';
import { DurationError } from '../config/duration';
import { DatasetChangedError, DatasetFileError, DatasetValidationError } from '../datasets/issues';
import { JudgeConfigError } from '../grading/judge/errors';
import { NotifySpecError } from '../domain/notify';
import { ScheduleUsageError } from '../schedules/policy';
import { ConfigError as WorkerConfigError } from '../shared/configError';
import { UsageError } from './usageError';

/**
 * Errors of what the user gave — flags, the config file, the dataset, the worker's settings — which exit 2 before
 * anything is sent. Told apart by class, never by message; anything else that ends a command is a failure (3).
 */
const USAGE_ERRORS = [
  UsageError, RunConfigError, WorkerConfigError, JudgeConfigError, ConfigurationError, DurationError,
  DatasetValidationError, DatasetFileError, DatasetChangedError, ScheduleUsageError, CleanupOptionError, NotifySpecError,
  PayloadKeysError,
] as const;

export function isUsageError(err: unknown): boolean {
  return USAGE_ERRORS.some((cls) => err instanceof cls);
}
