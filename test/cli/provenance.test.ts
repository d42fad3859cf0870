import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sim/constants';
import type { RunSummary } from '../../src/domain/results';
import { CLI, sitechat } from '../helpers/cli';

const BUILD_INFO = join(__dirname, '..', '..', 'dist', 'build-info.json');

function files(dir: string): string {
  return readdirSync(dir).filter((n) => /\.(json|md|html|xml|jsonl)$/u.test(n)).map((n) => readFileSync(join(dir, n), 'utf8')).join('\n');
}

function summaryOf(dir: string): RunSummary {
  return JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary;
}

describe('provenance of the CLI\'s reports (embedded Temporal dev server and simulator)', () => {
  let dir: string;
  let runDir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-provenance-'));
    writeFileSync(join(dir, 'q.csv'), 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a run on the embedded defaults says, first thing in each report, that the answers came from the built-in simulator', async () => {
    const ran = await sitechat(dir, ['run', 'q.csv', '--out', 'out']);
    expect(ran.code, ran.stderr).toBe(0);
    runDir = join(dir, 'out');
    const { provenance } = summaryOf(runDir);
    const commit = (JSON.parse(readFileSync(BUILD_INFO, 'utf8')) as { commit: string }).commit;
    expect(provenance).toMatchObject({
      answers: { from: 'simulator', host: expect.stringMatching(/^127\.0\.0\.1:\d+$/u) as unknown },
      judge: { model: 'sim-judge', simulator: true },
      runner: { version: (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version, commit },
    });
    expect(commit).not.toBe('unknown');
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    // The banner's wording and place are pinned in test/unit/reports/provenance.test.ts; here, that a run shows it.
    expect(html).toMatch(/<\/h1><p class="banner simulator" role="note">/u);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/^> \*\*⚠ answers from the built-in simulator/mu);
    expect(readFileSync(join(runDir, 'junit.xml'), 'utf8')).toContain('<property name="provenance.answersFrom" value="simulator"/>');
    const all = files(runDir);
    expect(all).not.toContain(DEMO.apiKey);
    expect(all).not.toContain('sim-judge-key');
  }, 120_000);

  it('`sitechat grade` of that run says whose answers it graded and names the judge by model and host only', async () => {
    const judgeKey = 'judge-secret-key-31337';
    const ran = await sitechat(dir, ['grade', 'out', '--out', 'graded'], {
      SITECHAT_JUDGE_BASE_URL: `http://127.0.0.1:9/v1?api-key=${judgeKey}`, SITECHAT_JUDGE_API_KEY: judgeKey, SITECHAT_JUDGE_MODEL: 'judge-model-x',
    });
    expect(ran.code, ran.stderr).toBe(0);
    const graded = join(dir, 'graded');
    const { provenance } = summaryOf(graded);
    const original = summaryOf(runDir);
    expect(provenance).toMatchObject({
      answers: { from: 'file', input: runDir, regradeOf: original.runId, host: original.provenance?.answers.host, simulator: true },
      judge: { model: 'judge-model-x', host: '127.0.0.1:9', simulator: false },
    });
    expect(readFileSync(join(graded, 'report.html'), 'utf8')).toContain('banner simulator');
    expect(readFileSync(join(graded, 'junit.xml'), 'utf8')).toContain('<property name="provenance.judgeModel" value="judge-model-x"/>');
    const all = files(graded);
    for (const secret of [judgeKey, 'api-key=']) expect(all).not.toContain(secret);
  }, 60_000);

  it('a backfill\'s reports carry the same provenance', async () => {
    const ran = await sitechat(dir, ['backfill', 'q.csv', '--out', 'answers.csv']);
    expect(ran.code, ran.stderr).toBe(0);
    const runs = readdirSync(join(dir, 'runs')).filter((n) => existsSync(join(dir, 'runs', n, 'summary.json')));
    const backfill = runs.map((n) => summaryOf(join(dir, 'runs', n))).find((s) => s.kind === 'backfill');
    expect(backfill?.provenance?.answers.from).toBe('simulator');
  }, 120_000);
});
