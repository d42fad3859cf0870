import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { CLI, sitechat } from '../helpers/cli';

describe('sitechat grade (offline re-grading, the built CLI)', () => {
  let dir: string;
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  /** A Site Chat API the command is pointed at, to show it is never called. */
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-grade-'));
    sim = await startSimulator({ port: 0, rateLimit: 0 });
    env = { SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_RUNS_DIR: join(dir, 'runs') };
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('grades a CSV of recorded answers, writes the reports, sends nothing', async () => {
    const file = join(dir, 'answers.csv');
    writeFileSync(file, [
      'id,question,expected,answer,must_include',
      'a,What is the capital of France?,Paris|Paname,"The capital of France is Paris.",',
      'b,What is the capital of Italy?,Rome,"It is Milan.",',
      'c,How much is the plan?,,"It costs $9.99 a month.",$9.99',
    ].join('\n') + '\n');
    const ran = await sitechat(dir, ['grade', file, '--out', join(dir, 'out'), '--json'], env);
    expect([0, 1]).toContain(ran.code);
    const summary = JSON.parse(ran.stdout) as { total: number; passed: number; failed: number; graded: number };
    expect(summary).toMatchObject({ total: 3, graded: 3 });
    const rows = readFileSync(join(dir, 'out', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; outcome: string; answer: string; assertions: unknown[] });
    expect(rows.map((r) => [r.id, r.outcome])).toEqual([['a', 'passed'], ['b', 'failed'], ['c', 'passed']]);
    expect(rows[0]?.answer).toBe('The capital of France is Paris.');
    for (const f of ['summary.json', 'report.md', 'junit.xml', 'report.html']) expect(existsSync(join(dir, 'out', f))).toBe(true);
    expect(Object.keys((await sim.stats()).requests)).toEqual([]);

    const gated = await sitechat(dir, ['grade', file, '--fail-under', '90%'], env);
    expect(gated.code).toBe(1);
  });

  it('refuses an input without answers, or with a bad number, naming file, line and column (exit 2)', async () => {
    const noAnswer = join(dir, 'questions.csv');
    writeFileSync(noAnswer, 'id,question,expected\nq,Why?,Because\n');
    const a = await sitechat(dir, ['grade', noAnswer], env);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/questions\.csv: .*no `answer` column/);

    const badNumber = join(dir, 'bad.jsonl');
    writeFileSync(badNumber, '{"id":"x","question":"Why?","answer":"Because.","confidence_score":"high"}\n{"id":"y","question":"How?","answer":"So.","latency_ms":-5}\n');
    const b = await sitechat(dir, ['grade', badNumber], env);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/bad\.jsonl:1: `confidence_score` must be a number from 0 to 100/);
    expect(b.stderr).toMatch(/bad\.jsonl:2: `latency_ms` must be a number >= 0/);
    expect(b.stderr).toContain('nothing was graded');
  });

  it('a blank answer is an error row, never a grade of the empty string', async () => {
    const file = join(dir, 'blank.csv');
    writeFileSync(file, 'id,question,must_include,answer\nq1,Why?,because,\n');
    const ran = await sitechat(dir, ['grade', file, '--out', join(dir, 'blank')], env);
    const row = JSON.parse(readFileSync(join(dir, 'blank', 'results.jsonl'), 'utf8').trim()) as { outcome: string; error: string };
    expect(row).toMatchObject({ outcome: 'error', error: 'no answer recorded for this row in the input' });
    expect(ran.code).not.toBe(2);
  });

  it('grades with the LLM judge (paced, cached): a second grade of the same answers makes no judge call', async () => {
    const file = join(dir, 'judged.csv');
    writeFileSync(file, [
      'id,question,expected,rubric,answer',
      'j1,How much does the Personal plan cost?,$9.99 per month,mentions $9.99,"The Personal plan costs $9.99 per month."',
      'j2,Which payment methods do you accept?,Only gold bars delivered by courier,mentions PayPal,"We accept Visa, Mastercard and PayPal."',
    ].join('\n') + '\n');
    writeFileSync(join(dir, 'judge.yaml'), 'assertions:\n  - { type: llm-correctness }\n');
    const judgeEnv = { ...env, SITECHAT_JUDGE_BASE_URL: sim.judgeBaseUrl, SITECHAT_JUDGE_API_KEY: 'sk-judge-cli-SECRET', SITECHAT_JUDGE_MODEL: 'sim-judge', SITECHAT_JUDGE_RPM: '600' };
    const calls = (): number => sim.stats().judge.calls;
    const before = calls();
    const first = await sitechat(dir, ['grade', file, '--config', join(dir, 'judge.yaml'), '--out', join(dir, 'judged1'), '--json'], judgeEnv);
    expect(first.code, first.stderr).toBe(0);
    expect(calls() - before).toBe(4);
    const summary = JSON.parse(first.stdout) as { passed: number; failed: number; judge: { calls: number; cached: number } };
    expect(summary).toMatchObject({ passed: 1, failed: 1, judge: { calls: 4, cached: 0 } });
    expect(readFileSync(join(dir, 'judged1', 'report.md'), 'utf8')).toMatch(/\| LLM judge \| 4 calls, 0 cached, [\d,]+ tokens \|/);
    expect(readFileSync(join(dir, 'judged1', 'report.html'), 'utf8')).toContain('judge calls / cached');
    const second = await sitechat(dir, ['grade', file, '--config', join(dir, 'judge.yaml'), '--out', join(dir, 'judged2'), '--json'], judgeEnv);
    expect(second.code, second.stderr).toBe(0);
    expect(calls() - before).toBe(4);
    expect(JSON.parse(second.stdout)).toMatchObject({ passed: 1, failed: 1, judge: { calls: 0, cached: 4 } });
    expect(readFileSync(join(dir, 'judged2', 'results.jsonl'), 'utf8')).not.toContain('sk-judge-cli-SECRET');
  });

  it('a judge assertion without a configured judge makes the row an error, never a pass or fail', async () => {
    const file = join(dir, 'nojudge.csv');
    writeFileSync(file, 'id,question,rubric,answer\nn1,Why?,is polite,Because.\n');
    const ran = await sitechat(dir, ['grade', file, '--out', join(dir, 'nojudge')], env);
    expect(ran.code).toBe(1);
    const row = JSON.parse(readFileSync(join(dir, 'nojudge', 'results.jsonl'), 'utf8').trim()) as { outcome: string; error: string; errorType: string };
    expect(row).toMatchObject({ outcome: 'error', errorType: 'JudgeConfigError' });
    expect(row.error).toContain('no judge configured');
  });
});
