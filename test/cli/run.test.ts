import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sim/constants';
import { CLI, sitechat } from '../helpers/cli';

describe('sitechat run (the CLI, embedded Temporal dev server and simulator)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists the commands', async () => {
    const { code, stdout } = await sitechat(dir, ['--help']);
    expect(code).toBe(0);
    for (const cmd of ['run', 'backfill', 'watch', 'cancel', 'worker', 'sim']) expect(stdout).toContain(cmd);
  });

  it('refuses an invalid dataset with every problem, file and line, before sending anything (exit 2)', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'id,question,min_confidence\na,What is the price?,\nb,,50\nc,Why?,abc\na,Duplicate id?,\n');
    const { code, stderr } = await sitechat(dir, ['run', file]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad\.csv:3: `question`/);
    expect(stderr).toMatch(/bad\.csv:4: `min_confidence`/);
    expect(stderr).toMatch(/bad\.csv:5: `id`/);
    expect(stderr).toContain('nothing was sent');
  });

  // The demo as the README shows it runs in test/cli/docsExamples.test.ts (README.md's fence, as written, no warning).
  it('runs a dataset end to end, prints JSON, writes five reports; --fail-under decides the exit code', async () => {
    const file = join(dir, 'tiny.csv');
    writeFileSync(file, 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\nq2,How much storage do I get for free?,5 GB\nq3,What is the airspeed of an unladen swallow?,swallow\n');
    const ok = await sitechat(dir, ['run', file, '--json', '--out', join(dir, 'report')]);
    expect(ok.code, ok.stderr).toBe(0);
    const summary = JSON.parse(ok.stdout) as { total: number; passed: number; graded: number; reportFiles: string[]; gate: { verdict: string }; feedback: { good: number; bad: number; failed: number } };
    expect(summary.gate.verdict).toBe('no_threshold');
    expect(summary.feedback).toMatchObject({ failed: 0 });
    expect(summary.feedback.good + summary.feedback.bad).toBe(3);
    expect(summary.total).toBe(3);
    expect(summary.graded).toBe(3);
    for (const f of ['summary.json', 'results.jsonl', 'report.md', 'junit.xml', 'report.html']) expect(existsSync(join(dir, 'report', f))).toBe(true);
    expect(readFileSync(join(dir, 'report', 'results.jsonl'), 'utf8')).not.toContain(DEMO.apiKey);

    const gate = await sitechat(dir, ['run', file, '--fail-under', '100%']);
    expect(gate.code).toBe(1);
    // The lines' wording is pinned in test/unit/cli/verdict.test.ts; here, the verdict, its reason and the settings given.
    expect(gate.stdout).toMatch(/verdict\s+FAILED\n\s+- pass rate [\d.]+% \(\d \/ 3 graded\) /);
    expect(gate.stdout).toContain('is below 100.0% (--fail-under)');
    expect(gate.stdout).toMatch(/gate\s+fail-under 100\.0%, max-error-rate 0\.0%, /);

    const bad = await sitechat(dir, ['run', file, '--max-error-rate', 'lots']);
    expect(bad.code).toBe(2);
    // The wording is pinned in test/unit/cli/validate.test.ts.
    expect(bad.stderr).toContain('--max-error-rate: must be a fraction from 0 to 1');
    expect(bad.stderr).toContain('got "lots"');
  });
  it('--config applies default assertions and runs a custom grader module in an activity', async () => {
    writeFileSync(join(dir, 'short.js'), 'exports.grade = (row, answer) => ({ pass: answer.answer.length < 5, reason: `length ${answer.answer.length}` });\n');
    writeFileSync(join(dir, 'sitechat.config.yaml'), 'failUnder: 0.5\nassertions:\n  - { type: custom, module: ./short.js }\n');
    const file = join(dir, 'one.csv');
    writeFileSync(file, 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\n');
    const ran = await sitechat(dir, ['run', file, '--config', join(dir, 'sitechat.config.yaml'), '--out', join(dir, 'custom')]);
    expect(ran.code, ran.stderr).toBe(1);
    const row = JSON.parse(readFileSync(join(dir, 'custom', 'results.jsonl'), 'utf8').trim()) as { outcome: string; assertions: { type: string; pass: boolean; reason: string }[] };
    expect(row.outcome).toBe('failed');
    expect(row.assertions.map((a) => [a.type, a.pass])).toEqual([['contains-all', true], ['custom', false]]);
    expect(row.assertions[1]?.reason).toMatch(/length \d+/);
  });
});
