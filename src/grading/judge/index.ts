/**
 * The LLM judge. Node-side surface (the `openai` client, the file cache, the pacer): activities and
 * `sitechat grade` import it. Workflow code imports only `./request`, `./types` and `./errors` directly.
 */
export * from './types';
export * from './errors';
export { buildMessages, JUDGE_PROMPTS, promptVersion, SECTION_TAGS, type JudgeMessage } from './prompts';
export { MAX_REASON_LENGTH, parseJudgeReply } from './parse';
export { judgeRequestFor, judgeResult, referencesOf, unjudgeableResult, type RowForJudge } from './request';
export { JUDGE_DEFAULTS, MAX_JUDGE_TIMEOUT_MS, judgeSettingsFromEnv, type JudgeSettings } from './settings';
export { cappedRetryAfterMs, isFinalAttempt, type JudgeRetryLimits } from './retry';
export { createJudge, createJudgeFromEnv, OpenAIJudge, type JudgeRequestBody } from './openaiJudge';
export { JUDGE_CACHE_DIR, JudgeCache, judgeCacheKey, judgeCached } from './cache';
export { Pacer, pacedJudge, type PacedJudgeOptions } from './paced';
