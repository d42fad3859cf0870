/**
 * A dataset that would grade nothing without saying so: a misspelt column (`expeted`), or no row with anything to
 * grade. Both exit 2 before anything starts, unless the config declares the column as metadata or the run is asked to
 * go on ungraded (`--allow-ungraded`).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, startSimulator, type SimulatorHandle } from '../../src/sim';
import { CLI, sitechat } from '../helpers/cli';
import { namespaceForFile } from '../helpers/namespace';

describe('datasets that would grade nothing (built CLI, real Temporal dev server, a separately started simulator)', () => {
  let dir: string;
  let env: Record<string, string>;
  let sim: SimulatorHandle;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-dataset-checks-'));
    // A simulator of its own: an embedded simulator's worker joins no Temporal server its command did not start.
    sim = await startSimulator({ port: 0, latencyScale: 0.02, rateLimit: 0 });
    env = {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespaceForFile(__filename), SITECHAT_RUNS_DIR: join(dir, 'runs'),
      SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId,
    };
    writeFileSync(join(dir, 'typo.csv'), 'id,question,expeted\nq1,How much does the Personal plan cost?,$9.99\n');
    writeFileSync(join(dir, 'plain.csv'), 'id,question,notes\nq1,How much does the Personal plan cost?,pricing\n');
    writeFileSync(join(dir, 'declared.yaml'), 'metadata: [expeted]\n');
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a misspelt column: file, line and the column it resembles, exit 2, nothing started', async () => {
    const ran = await sitechat(dir, ['run', 'typo.csv'], env);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('typo.csv:1: unknown column `expeted`: did you mean `expected`?');
    expect(ran.stderr).toContain('`metadata: [expeted]`');
    expect(ran.stderr).toContain('nothing was sent');
    expect(existsSync(join(dir, 'runs')), 'no run was recorded').toBe(false);
  });

  it('declared as metadata it passes the name check, and then grades nothing: that is refused too', async () => {
    const ran = await sitechat(dir, ['run', 'typo.csv', '--config', 'declared.yaml'], env);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).not.toContain('unknown column');
    expect(ran.stderr).toContain('typo.csv: no row has anything to grade');
  });

  it('no row to grade: says what would grade and the ways on, exit 2, nothing started', async () => {
    const ran = await sitechat(dir, ['run', 'plain.csv'], env);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('plain.csv: no row has anything to grade');
    expect(ran.stderr).toContain('`expected`');
    expect(ran.stderr).toContain('`sitechat backfill`');
    expect(ran.stderr).toContain('--allow-ungraded');
    expect(existsSync(join(dir, 'runs')), 'no run was recorded').toBe(false);
  });

  it('--allow-ungraded runs it: every row answered, none graded', async () => {
    const ran = await sitechat(dir, ['run', 'plain.csv', '--allow-ungraded', '--json'], env);
    expect(ran.code, ran.stderr).toBe(0);
    const summary = JSON.parse(ran.stdout) as { total: number; answered: number; graded: number; passRate: number | null };
    expect({ total: summary.total, answered: summary.answered, graded: summary.graded, passRate: summary.passRate }).toEqual({ total: 1, answered: 1, graded: 0, passRate: null });
  });

  it('grade: a misspelt answer column, exit 2, nothing graded', async () => {
    writeFileSync(join(dir, 'answers.csv'), 'id,question,expected,anwser\nq1,How much?,$9.99,It costs $9.99\n');
    const ran = await sitechat(dir, ['grade', 'answers.csv'], env);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('answers.csv:1: unknown column `anwser`: did you mean `answer`?');
    expect(ran.stderr).toContain('nothing was graded');
  });
});
