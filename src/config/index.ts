/** Run config file support: `loadRunConfig`, `findRunConfig`, `parseDuration`. */
export { assertionSpecSchema, ASSERTION_TYPES } from './assertions';
export { DurationError, DurationUnit, isDuration, parseDuration } from './duration';
export { CONFIG_FILE_NAMES, ConfigError, findRunConfig, loadRunConfig, type ConfigIssue } from './load';
export { FeedbackMode, runConfigSchema, type RunConfig } from './schema';
