import { chmod, mkdir, mkdtemp, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRate } from '../../../src/cli/commands/run/runOptions';
import { UsageError } from '../../../src/cli/usageError';
import {
  capLines, checkBaseline, checkConfig, checkOutDir, checkOutFile, checkRunId, validateRunFlags,
} from '../../../src/cli/commands/run/validate';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'validate-'));
});

const env = {};
const flags = { worker: true };

describe('parseRate', () => {
  it('reads fractions from 0 to 1 and percentages with %', () => {
    expect(parseRate('0.9')).toBe(0.9);
    expect(parseRate('0')).toBe(0);
    expect(parseRate('1')).toBe(1);
    expect(parseRate(' 90% ')).toBe(0.9);
    expect(parseRate('.5')).toBe(0.5);
    expect(parseRate('100%')).toBe(1);
  });

  it('refuses a bare number above 1 instead of reading it as a percentage, and names the flag', () => {
    expect(() => parseRate('90')).toThrow(/--fail-under .*got "90" \(did you mean 90%\?\)/);
    expect(() => parseRate('2', '--max-error-rate')).toThrow(/^--max-error-rate must be/);
    for (const bad of ['150%', '-0.1', 'abc', '', '0.9%%', '1e-1', '0x1']) expect(() => parseRate(bad), bad).toThrow(UsageError);
  });
});

describe('checkRunId', () => {
  it('accepts the ids sitechat makes and refuses path tricks', () => {
    expect(() => checkRunId('20261122-0412-5f3a9c', '--resume')).not.toThrow();
    expect(() => checkRunId('sitechat-backfill-20261122-0412-5f3a9c', '--resume')).not.toThrow();
    for (const bad of ['../x', 'a/b', 'a\\b', '..', 'a..b', '', '-x', 'a b']) expect(() => checkRunId(bad, '--resume'), bad).toThrow(/--resume must be a run id/);
  });
});

describe('output paths', () => {
  it('run --out: creates a missing directory, refuses an existing file', async () => {
    const out = join(dir, 'a', 'b');
    expect(await checkOutDir(out)).toBeUndefined();
    expect((await stat(out)).isDirectory()).toBe(true);
    await writeFile(join(dir, 'file.txt'), 'x');
    expect(await checkOutDir(join(dir, 'file.txt'))).toMatch(/file\.txt is a file; give a directory/);
    expect(await checkOutDir(join(dir, 'file.txt', 'sub'))).toMatch(/file\.txt is a file, not a directory/);
  });

  it('backfill --out: a .csv/.jsonl file in a writable directory', async () => {
    expect(await checkOutFile(join(dir, 'new', 'answers.csv'))).toBeUndefined();
    expect(await checkOutFile(join(dir, 'answers.JSONL'))).toBeUndefined();
    expect(await checkOutFile(join(dir, 'answers.txt'))).toMatch(/use a \.csv or \.jsonl file name/);
    await mkdir(join(dir, 'd.csv'));
    expect(await checkOutFile(join(dir, 'd.csv'))).toMatch(/is a directory/);
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      await mkdir(locked);
      await chmod(locked, 0o500);
      expect(await checkOutFile(join(locked, 'a.csv'))).toMatch(/locked is not writable/);
    }
  });
});

describe('output paths the file system refuses: a problem of the flag, never a thrown error', () => {
  it('a dangling symbolic link, for a report directory and for an answers file', async () => {
    await symlink(join(dir, 'gone', 'reports'), join(dir, 'link'));
    expect(await checkOutDir(join(dir, 'link'))).toBe(`${join(dir, 'link')} is a symbolic link to ${join(dir, 'gone', 'reports')}, which does not exist: create it, or give another path`);
    await symlink(join(dir, 'gone', 'a.csv'), join(dir, 'answers.csv'));
    expect(await checkOutFile(join(dir, 'answers.csv'))).toMatch(/answers\.csv is a symbolic link to .*gone\/a\.csv, which does not exist/);
    // A dangling link further up the path, too.
    expect(await checkOutDir(join(dir, 'link', 'sub'))).toMatch(/link is a symbolic link to .*gone\/reports, which does not exist/);
  });

  it('a link loop, and a path under a file', async () => {
    await symlink(join(dir, 'loop'), join(dir, 'loop'));
    expect(await checkOutDir(join(dir, 'loop'))).toBe(`${join(dir, 'loop')}: too many levels of symbolic links (a link that points to itself?)`);
    expect(await checkOutFile(join(dir, 'loop', 'a.csv'))).toMatch(/loop\/a\.csv: too many levels of symbolic links/);
    await writeFile(join(dir, 'file'), 'x');
    expect(await checkOutFile(join(dir, 'file', 'a.csv'))).toMatch(/file is a file, not a directory/);
  });

  it('a name the file system refuses', async () => {
    const long = join(dir, 'x'.repeat(300));
    expect(await checkOutDir(long)).toBe(`${long}: the name is too long`);
    expect(await checkOutFile(`${long}.csv`)).toBe(`${long}.csv: the name is too long`);
  });
});

describe('checkBaseline', () => {
  it('accepts latest and a run directory (or a file in it) with results.jsonl', async () => {
    expect(await checkBaseline('latest')).toBeUndefined();
    await writeFile(join(dir, 'results.jsonl'), '');
    await writeFile(join(dir, 'summary.json'), '{}');
    expect(await checkBaseline(dir)).toBeUndefined();
    expect(await checkBaseline(join(dir, 'summary.json'))).toBeUndefined();
  });

  it('refuses a missing path and a directory that is not a finished run', async () => {
    expect(await checkBaseline('/nonexistent')).toMatch(/\/nonexistent: no such run directory/);
    await mkdir(join(dir, 'empty'));
    expect(await checkBaseline(join(dir, 'empty'))).toMatch(/empty is not a finished run directory: it has no results\.jsonl/);
    await mkdir(join(dir, 'half'));
    await writeFile(join(dir, 'half', 'summary.json'), '{"sites":[]}');
    expect(await checkBaseline(join(dir, 'half'))).toMatch(/half is not a finished run directory/);
  });

  it('accepts a multi-site or matrix run\'s combined report directory (its summary.json lists the runs)', async () => {
    await mkdir(join(dir, 'combined'));
    await writeFile(join(dir, 'combined', 'summary.json'), JSON.stringify({ runId: 'm', sites: [{ siteId: 'a', runId: 'm-a' }] }));
    expect(await checkBaseline(join(dir, 'combined'))).toBeUndefined();
  });
});

describe('checkConfig', () => {
  it('refuses a YAML alias bomb with a clear message instead of expanding it', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [prev, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['g', 'h']]) {
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const path = join(dir, 'bomb.yaml');
    await writeFile(path, `${levels.join('\n')}\n`);
    const { problems } = await checkConfig(path);
    expect(problems).toEqual([`${path}: invalid YAML: its aliases (*name) expand to too much data (limit 100 alias expansions); write the values out`]);
  });

  it('imports custom grader modules and requires a grade export', async () => {
    await writeFile(join(dir, 'good.js'), 'exports.grade = () => true;\n');
    await writeFile(join(dir, 'nograde.js'), 'exports.other = 1;\n');
    await writeFile(join(dir, 'broken.js'), 'this is not javascript\n');
    const path = join(dir, 'sitechat.config.yaml');
    await writeFile(path, 'assertions:\n  - { type: custom, module: ./good.js }\n  - { type: custom, module: ./nograde.js }\n  - { type: custom, module: ./broken.js }\n');
    const { problems, config } = await checkConfig(path);
    expect(config?.assertions).toHaveLength(3);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/`assertions\[1\]\.module` custom grader .*nograde\.js exports no grade/);
    expect(problems[1]).toMatch(/`assertions\[2\]\.module` cannot load custom grader .*broken\.js/);
  });
});

describe('validateRunFlags', () => {
  it('lists every problem in --help order', async () => {
    await writeFile(join(dir, 'file'), 'x');
    const { problems } = await validateRunFlags('evaluation', {
      ...flags, concurrency: '0', answerTimeout: 'banana', email: 'notanemail', baseline: '/nonexistent', failUnder: '90',
      maxErrorRate: '2', maxUncertainRate: 'lots', out: join(dir, 'file'), delimiter: 'ab',
    }, env, 'demo-site');
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      '--concurrency', '--answer-timeout', '--email', '--baseline', '--fail-under', '--max-error-rate', '--max-uncertain-rate', '--out', '--delimiter',
    ]);
    expect(problems[1]).toMatch(/invalid duration "banana"/);
    expect(problems[6]).toBe('--max-uncertain-rate: must be a fraction from 0 to 1 (0.9) or a percentage with % (90%), got "lots"');
  });

  it('backfill: --out must be an answers file, --resume a safe id; a missing site is a problem', async () => {
    const { problems } = await validateRunFlags('backfill', { ...flags, out: join(dir, 'answers.txt'), resume: '../etc' }, env, undefined);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^--site: no site given/);
    expect(problems[1]).toMatch(/^--out: .*answers\.txt: use a \.csv or \.jsonl/);
    expect(problems[2]).toMatch(/^--resume: must be a run id/);
  });

  it('checks SITECHAT_EMAIL when --email is not given, and passes good flags', async () => {
    const bad = await validateRunFlags('evaluation', flags, { SITECHAT_EMAIL: 'nope' }, 'demo-site');
    expect(bad.problems).toEqual(['SITECHAT_EMAIL: must be an email address, got "nope"']);
    const good = await validateRunFlags('evaluation', { ...flags, concurrency: '5', answerTimeout: '90s', email: 'a@b.co', failUnder: '90%', baseline: 'latest', delimiter: 'tab' }, env, 'demo-site');
    expect(good.problems).toEqual([]);
  });
});

describe('capLines', () => {
  it('shows at most max lines, then how many more', () => {
    expect(capLines(['a', 'b', 'c'], 2)).toEqual(['a', 'b', '… and 1 more']);
    expect(capLines(['a'], 2, 5)).toEqual(['a', '… and 4 more']);
    expect(capLines(['a', 'b'], 2)).toEqual(['a', 'b']);
  });
});
