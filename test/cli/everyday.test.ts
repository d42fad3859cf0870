import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { CLI, sitechat } from '../helpers/cli';

/** The small surprises of a first day with the CLI (issue 21): each as a user meets it, with the built CLI. */
describe('everyday CLI details (built CLI; no Temporal needed)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-everyday-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('backfill --help lists a backfill\'s exit codes (no quality gate) and says each default once', async () => {
    const help = await sitechat(dir, ['backfill', '--help']);
    expect(help.code).toBe(0);
    const codes = help.stdout.slice(help.stdout.indexOf('Exit codes:'));
    expect(codes).toContain('0  the backfill finished');
    expect(codes).not.toMatch(/gate/u);
    expect(help.stdout).not.toContain('(default) (default: true)');
    expect(help.stdout).toMatch(/--close-sessions\s+close each conversation's session after its last\s+turn \(default: true\)/u);
  });

  it('runs --dataset with a sha256 prefix under 8 hex digits is refused (exit 2), and its help says so', async () => {
    const short = await sitechat(dir, ['runs', '--dataset', 'abc123']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('--dataset: a sha256 prefix needs at least 8 hex digits, got 6');
    expect((await sitechat(dir, ['runs', '--help'])).stdout).toMatch(/sha256 prefix of at\s+least 8 hex digits/u);
    expect((await sitechat(dir, ['runs', '--dataset', 'abc12345'])).code).toBe(0);
  });

  it('sim on a taken port suggests --port 0 (exit 3)', async () => {
    const sim: SimulatorHandle = await startSimulator({ port: 0 });
    try {
      const taken = await sitechat(dir, ['sim', '--port', String(sim.port)]);
      expect(taken.code).toBe(3);
      expect(taken.stderr).toContain(`port ${sim.port} on 127.0.0.1 is taken`);
      expect(taken.stderr).toContain('--port 0 for a free one');
    } finally {
      await sim.close();
    }
  });

  it('grade appends its headline and verdict to GITHUB_STEP_SUMMARY, as run does', async () => {
    const file = join(dir, 'answers.csv');
    writeFileSync(file, 'id,question,answer,must_include\na,How much is the plan?,"It costs $9.99 a month.",$9.99\n');
    const stepSummary = join(dir, 'step-summary.md');
    writeFileSync(stepSummary, '# earlier step\n');
    const graded = await sitechat(dir, ['grade', file, '--fail-under', '0.5', '--out', join(dir, 'graded')], { GITHUB_STEP_SUMMARY: stepSummary });
    expect(graded.code, graded.stderr).toBe(0);
    const text = readFileSync(stepSummary, 'utf8');
    expect(text.startsWith('# earlier step\n')).toBe(true);
    expect(text).toMatch(/PASSED/u);
    expect(graded.stderr).not.toContain('judge route');
  });
});
