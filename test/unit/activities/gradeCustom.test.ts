import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities';
import { JUDGE_DEFAULTS } from '../../../src/grading/judge/settings';
import { Secret } from '../../../src/api/secret';
import type { DatasetRow } from '../../../src/domain/dataset';
import type { GradeResult } from '../../../src/domain/grade';
import type { WorkerConfig } from '../../../src/temporal/workerConfig';

const API_KEY = 'sk-api-key-4242424242';
const JUDGE_KEY = 'sk-judge-key-7373737373';
const dir = mkdtempSync(join(tmpdir(), 'grade-activity-'));
// A grader that echoes whatever secrets it can see, as a careless one does in its error text.
writeFileSync(join(dir, 'echo.mjs'), `export function grade() { throw new Error('auth failed for ${API_KEY} and ${encodeURIComponent(JUDGE_KEY)}'); }\n`);
mkdirSync(join(dir, 'graders'));
const row: DatasetRow = { id: '1', index: 0, line: 2, question: 'q', metadata: {} };

function activitiesWith(gradersDir: string | undefined) {
  const config: WorkerConfig = {
    baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: API_KEY, runsDir: dir, ratePerSecond: 0, pollIntervalMs: 1000, maxConcurrentAsks: 1, pollScope: 'path',
    egressIps: 1, siteRates: {}, pacerDir: join(dir, '.pacer'), gradersDir, judge: { ...JUDGE_DEFAULTS, baseUrl: 'http://127.0.0.1:9/v1', apiKey: new Secret(JUDGE_KEY), model: 'm' },
  };
  return createActivities(config).activities;
}

describe('gradeCustom on a worker', () => {
  it('scrubs the API key and the judge key from what a grader throws', async () => {
    const { gradeCustom } = activitiesWith(dir);
    const result: GradeResult = await new MockActivityEnvironment().run(gradeCustom, { row, answer: { answer: 'a' }, modules: [{ module: 'echo.mjs' }] });
    const reason = result.assertions[0]?.reason ?? '';
    expect(reason).toContain('auth failed for [REDACTED] and [REDACTED]');
    expect(JSON.stringify(result)).not.toContain('sk-');
  });

  it('refuses custom graders on a worker with no SITECHAT_GRADERS_DIR, and modules outside the directory', async () => {
    await expect(new MockActivityEnvironment().run(activitiesWith(undefined).gradeCustom, { row, answer: { answer: 'a' }, modules: [{ module: 'echo.mjs' }] }))
      .rejects.toThrow(/this worker runs no custom graders; set SITECHAT_GRADERS_DIR/);
    await expect(new MockActivityEnvironment().run(activitiesWith(join(dir, 'graders')).gradeCustom, { row, answer: { answer: 'a' }, modules: [{ module: '../echo.mjs' }] }))
      .rejects.toThrow(/resolves to .*echo\.mjs, outside the graders directory .*graders \(SITECHAT_GRADERS_DIR\)/);
  });
});
