import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, sitechat } from '../helpers/cli';

/** `backfill --resume` of a run that already has every answer: nothing to do, and nothing changes. */
describe('resuming a finished run (built CLI, real Temporal dev server, embedded simulator)', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-resumedone-'));
    // Embedded server and simulator (an embedded simulator's worker joins no server its command did not start).
    env = { SITECHAT_RUNS_DIR: join(dir, 'runs') };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says there is nothing to resume, exits 0 and leaves the results, summary and answers file as they were', async () => {
    const file = join(dir, 'questions.csv');
    writeFileSync(file, 'id,question\nb1,How much does the Personal plan cost?\nb2,How much storage do I get for free?\nb3,Which payment methods do you accept?\n');
    const first = await sitechat(dir, ['backfill', file], env);
    expect(first.code, first.stderr).toBe(0);
    // A backfill grades nothing: no word about the judge.
    expect(first.stderr).not.toContain('judge');
    const runId = /started backfill run (\S+)/u.exec(first.stderr)?.[1] as string;
    const runDir = join(dir, 'runs', runId);
    const files = ['summary.json', 'results.jsonl', 'answers.csv', 'report.md'].map((f) => join(runDir, f));
    const before = files.map((f) => ({ text: readFileSync(f, 'utf8'), mtime: statSync(f).mtimeMs }));
    expect(before[0]?.text).not.toContain('NOT CLOSED');

    const again = await sitechat(dir, ['backfill', file, '--resume', runId], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`nothing to resume: run ${runId} has an answer for each of its 3 rows`);
    expect(again.stderr).not.toContain('started backfill run');
    expect(files.map((f) => ({ text: readFileSync(f, 'utf8'), mtime: statSync(f).mtimeMs }))).toEqual(before);
  });
});
