import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/cli/logger';
import { LogFormatError, logFormatFromEnv } from '../../../src/observability/logging/format';
import { jsonLogLine } from '../../../src/observability/logging/jsonLine';
import { temporalLogFields } from '../../../src/observability/logging/temporalFields';
import { ConfigError } from '../../../src/shared/configError';

const API_KEY = 'sk-live-JSONLOGS-0123456789abcdef';
const JUDGE_KEY = 'sk-judge-JSONLOGS-fedcba9876543210';
const ENV = { SITECHAT_API_KEY: API_KEY, SITECHAT_JUDGE_API_KEY: JUDGE_KEY, SITECHAT_STORE_URL: 'postgres://runner:pg-PASSWORD-42x@db:5432/sitechat' };

describe('JSON log lines', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('SITECHAT_LOG_FORMAT is text (default) or json; anything else is a usage error naming the variable', () => {
    expect(logFormatFromEnv({})).toBe('text');
    expect(logFormatFromEnv({ SITECHAT_LOG_FORMAT: 'JSON' })).toBe('json');
    expect(() => logFormatFromEnv({ SITECHAT_LOG_FORMAT: 'xml' })).toThrow(LogFormatError);
    expect(() => logFormatFromEnv({ SITECHAT_LOG_FORMAT: 'xml' })).toThrow(/^SITECHAT_LOG_FORMAT="xml": must be text or json$/);
    expect(new LogFormatError('x')).toBeInstanceOf(ConfigError);
  });

  it('one object per line, with the secrets of the environment scrubbed from the message and every field', () => {
    const line = jsonLogLine({
      time: new Date('2026-11-23T10:00:00Z'), level: 'WARN', source: 'worker',
      msg: `401 for key ${API_KEY} (judge ${JUDGE_KEY}, store pg-PASSWORD-42x)`,
      fields: { workflowId: 'sitechat-evaluation-r1', error: `echo ${encodeURIComponent(API_KEY)}`, attempt: 2, big: 10n, nested: { key: API_KEY }, failure: new TypeError(`bad ${JUDGE_KEY}`) },
    }, ENV);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
    for (const secret of [API_KEY, JUDGE_KEY, 'pg-PASSWORD-42x']) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toEqual({
      time: '2026-11-23T10:00:00.000Z', level: 'warn', source: 'worker',
      msg: '401 for key [REDACTED] (judge [REDACTED], store [REDACTED])',
      workflowId: 'sitechat-evaluation-r1', error: 'echo [REDACTED]', attempt: 2, big: '10', failure: 'TypeError: bad [REDACTED]',
    });
  });

  it("maps the SDK's workflow and activity log meta to run id, workflow id, activity and site", () => {
    expect(temporalLogFields({
      sdkComponent: 'activity', namespace: 'default', taskQueue: 'sitechat-submit', taskToken: 'opaque', isLocal: false, attempt: 3,
      workflowId: 'sitechat-evaluation-nightly-2026-11-22T02:00:00Z', workflowRunId: 'b7f1', workflowType: 'evaluationRun',
      activityId: '12', activityType: 'ask', siteId: 'site-a',
    })).toEqual({
      runId: 'nightly-2026-11-22T020000Z', component: 'activity', temporalRunId: 'b7f1', workflow: 'evaluationRun', activity: 'ask', site: 'site-a',
      namespace: 'default', taskQueue: 'sitechat-submit', attempt: 3, workflowId: 'sitechat-evaluation-nightly-2026-11-22T02:00:00Z', activityId: '12',
    });
    expect(temporalLogFields({ workflowId: 'sitechat-evaluation-r-7/chunk-2', runId: 'c9' })).toEqual({ runId: 'r-7', temporalRunId: 'c9', workflowId: 'sitechat-evaluation-r-7/chunk-2' });
    expect(temporalLogFields({ workflowId: 'someone-else' })).toEqual({ workflowId: 'someone-else' });
    expect(temporalLogFields(undefined)).toEqual({});
  });

  it('the CLI logger under SITECHAT_LOG_FORMAT=json writes JSON to stderr with the annotated fields, stdout untouched', () => {
    vi.stubEnv('SITECHAT_LOG_FORMAT', 'json');
    vi.stubEnv('SITECHAT_API_KEY', API_KEY);
    const err: string[] = [];
    const out: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    const log = createLogger();
    log.info('starting');
    log.annotate?.({ runId: 'r1', workflowId: 'sitechat-evaluation-r1', site: 'site-a' });
    log.warn(`the API said: bad key ${API_KEY} \u001b[31m`);
    log.out('{"runId":"r1"}');
    expect(err.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      { time: expect.any(String), level: 'info', source: 'cli', msg: 'starting' },
      { time: expect.any(String), level: 'warn', source: 'cli', msg: 'the API said: bad key [REDACTED] \u001b[31m', runId: 'r1', workflowId: 'sitechat-evaluation-r1', site: 'site-a' },
    ]);
    // JSON escapes control characters: the raw escape never reaches the terminal.
    expect(err.join('')).not.toContain('\u001b');
    expect(out).toEqual(['{"runId":"r1"}\n']);
  });
});
