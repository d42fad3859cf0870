import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { CLI, sitechat, type Ran } from '../helpers/cli';
import { seedRuns } from '../helpers/seedRuns';

/**
 * Every usage error exits 2 before anything is contacted: the CLI is pointed at a simulator and at a "Temporal"
 * port of this test, and both must see nothing.
 */
describe('usage errors exit 2 before any request (the CLI against a watched simulator and Temporal port)', () => {
  let dir: string;
  let sim: SimulatorHandle;
  let temporal: Server;
  let temporalConnections = 0;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-usage-'));
    sim = await startSimulator({ port: 0, rateLimit: 0 });
    temporal = createServer((socket) => {
      temporalConnections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => temporal.listen(0, '127.0.0.1', resolve));
    env = {
      SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId,
      TEMPORAL_ADDRESS: `127.0.0.1:${(temporal.address() as AddressInfo).port}`, SITECHAT_RUNS_DIR: join(dir, 'runs'),
    };
    writeFileSync(join(dir, 'q.csv'), 'id,question,email\nq1,How much does the Personal plan cost?,a@example.com\nq2,How much storage do I get for free?,a@example.com\n');
    writeFileSync(join(dir, 'other.csv'), 'id,question,email\nq1,Something else?,a@example.com\n');
    writeFileSync(join(dir, 'afile'), 'x');
    const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [prev, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['g', 'h'], ['h', 'i']]) bomb.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    writeFileSync(join(dir, 'bomb.yaml'), `${bomb.join('\n')}\n`);
    writeFileSync(join(dir, 'nograde.js'), 'exports.other = 1;\n');
    writeFileSync(join(dir, 'nograde.yaml'), 'assertions:\n  - { type: custom, module: ./nograde.js }\n');
    mkdirSync(join(dir, 'empty-run'));
    writeFileSync(join(dir, 'outside.js'), 'exports.grade = () => true;\n');
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(join(dir, 'cfg', 'escape.yaml'), 'assertions:\n  - { type: custom, module: ../outside.js }\n');
    writeFileSync(join(dir, 'inside.yaml'), 'assertions:\n  - { type: custom, module: ./outside.js }\n');
    await seedRuns(join(dir, 'runs'), [{ runId: '20260101-0000-aaaaaa', startedAt: '2026-01-01T00:00:00Z', dataset: join(dir, 'other.csv'), outcomes: ['passed'] }]);
  });
  afterAll(async () => {
    await sim?.close();
    await new Promise((resolve) => temporal?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  async function refused(args: string[], message: RegExp): Promise<Ran> {
    const ran = await sitechat(dir, args, env);
    expect(ran.code, `${args.join(' ')}\n${ran.stderr}`).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(sim.stats().requests, args.join(' ')).toEqual({});
    expect(temporalConnections, args.join(' ')).toBe(0);
    expect(existsSync(join(dir, '.sitechat')), 'no embedded Temporal server was started').toBe(false);
    return ran;
  }

  it("commander's own errors: a bad choice, an unknown option, a missing argument, an unknown command", async () => {
    await refused(['run', 'q.csv', '--feedback', 'bogus'], /argument 'bogus' is invalid. Allowed choices are graded, none/);
    await refused(['run', 'q.csv', '--fail-undr', '0.9'], /unknown option '--fail-undr'/);
    await refused(['run'], /missing required argument 'dataset'/);
    await refused(['runz'], /unknown command 'runz'/);
  });

  it('an unknown command is a usage error even with --help, at any level', async () => {
    for (const args of [['nosuch', '--help'], ['help', 'nosuch'], ['schedule', 'nosuch', '--help']]) {
      const ran = await refused(args, /^error: unknown command 'nosuch'\n/);
      expect(ran.stdout, args.join(' ')).toBe('');
    }
  });

  it('a dataset that is not UTF-8, or holds control characters, or nests too deep: line and character, exit 2, nothing sent', async () => {
    writeFileSync(join(dir, 'latin1.csv'), Buffer.from('id,question\nq1,Où est la gare ?\nq2,Wie spät ist es?\n', 'latin1'));
    await refused(['run', 'latin1.csv'], /^error: latin1\.csv:2:5: not valid UTF-8 \(byte 0xF9\): save the file as UTF-8/m);
    writeFileSync(join(dir, 'nul.jsonl'), '{"question": "a NUL \u0000 here"}\n{"question": "escaped \\u0000"}\n');
    const ran = await refused(['backfill', 'nul.jsonl'], /^error: nul\.jsonl:1:21: control character U\+0000 \(NUL\)/m);
    expect(ran.stderr).toMatch(/^error: nul\.jsonl:2: `question` holds control character U\+0000 \(NUL\), escaped in the JSON/m);
    writeFileSync(join(dir, 'deep.jsonl'), `{"question": "q", "metadata": ${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`);
    const deep = await refused(['run', 'deep.jsonl'], /^error: deep\.jsonl:1: objects and arrays nest more than 32 levels deep/m);
    expect(deep.stderr).not.toMatch(/call stack/);
  });

  it('run: durations, rates, baseline, out, config (alias bomb, grader without grade)', async () => {
    await refused(['run', 'q.csv', '--answer-timeout', 'banana'], /--answer-timeout: invalid duration "banana"/);
    await refused(['run', 'q.csv', '--fail-under', '90'], /--fail-under: must be .* got "90" \(did you mean 90%\?\)/);
    await refused(['run', 'q.csv', '--fail-under', '2'], /--fail-under: must be .* got "2"/);
    await refused(['run', 'q.csv', '--baseline', '/nonexistent'], /--baseline: \/nonexistent: no such run directory/);
    await refused(['run', 'q.csv', '--baseline', join(dir, 'empty-run')], /empty-run is not a finished run directory: it has no results\.jsonl/);
    await refused(['run', 'q.csv', '--out', 'afile'], /--out: afile is a file; give a directory/);
    await refused(['run', 'q.csv', '--config', 'bomb.yaml'], /bomb\.yaml: invalid YAML: its aliases \(\*name\) expand to too much data/);
    await refused(['run', 'q.csv', '--config', 'nograde.yaml'], /`assertions\[0\]\.module` custom grader .*nograde\.js exports no grade/);
    await refused(['run', 'q.csv', '--config', 'cfg/escape.yaml'], /--config cfg\/escape\.yaml: `assertions\[0\]\.module` custom grader .*outside\.js resolves to .*outside\.js, outside the graders directory .*cfg \(SITECHAT_GRADERS_DIR\)/);
    await refused(['run', 'q.csv', '--concurrency', 'lots'], /--concurrency: must be a whole number >= 1, got "lots"/);
  });

  it('--out through a dangling symbolic link: run, backfill and grade name the flag and exit 2', async () => {
    symlinkSync(join(dir, 'gone', 'reports'), join(dir, 'dangling'));
    symlinkSync(join(dir, 'gone', 'answers.csv'), join(dir, 'dangling.csv'));
    writeFileSync(join(dir, 'answers.csv'), 'id,question,expected,answer\nq1,Where?,Paris,In Paris\n');
    const message = (link: string): RegExp => new RegExp(`--out: .*${link} is a symbolic link to .*gone/.*, which does not exist`);
    await refused(['run', 'q.csv', '--out', 'dangling'], message('dangling'));
    await refused(['backfill', 'q.csv', '--out', 'dangling.csv'], message('dangling\\.csv'));
    await refused(['grade', 'answers.csv', '--out', 'dangling'], message('dangling'));
    await refused(['run', 'q.csv', '--out', 'afile/reports'], /--out: .*afile is a file, not a directory/);
  });

  it('custom graders outside SITECHAT_GRADERS_DIR are refused before anything starts', async () => {
    const ran = await sitechat(dir, ['run', 'q.csv', '--config', 'inside.yaml'], { ...env, SITECHAT_GRADERS_DIR: join(dir, 'cfg') });
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toMatch(/--config inside\.yaml: `assertions\[0\]\.module` custom grader .*outside\.js resolves to .*outside\.js, outside the graders directory .*cfg/);
    expect(sim.stats().requests).toEqual({});
    expect(temporalConnections).toBe(0);
  });

  it('backfill: out file name, email, resume id and dataset', async () => {
    await refused(['backfill', 'q.csv', '--out', 'answers.txt'], /--out: answers\.txt: use a \.csv or \.jsonl file name/);
    await refused(['backfill', 'q.csv', '--email', 'notanemail'], /--email: must be an email address, got "notanemail"/);
    await refused(['backfill', 'q.csv', '--resume', '../../etc'], /--resume: must be a run id/);
    await refused(['backfill', 'q.csv', '--resume', '20261231-0000-ffffff'], /--resume: no run 20261231-0000-ffffff in/);
    await refused(['backfill', 'q.csv', '--resume', '20260101-0000-aaaaaa'], /--resume: run 20260101-0000-aaaaaa is an evaluation, not a backfill/);
  });

  it('lists every problem, flags in --help order then the dataset in line order, capped with "… and N more"', async () => {
    const lines = ['id,question,email', ...Array.from({ length: 30 }, (_, i) => `q${i},,a@example.com`)];
    writeFileSync(join(dir, 'bad.csv'), `${lines.join('\n')}\n`);
    const ran = await refused(['run', 'bad.csv', '--concurrency', '0', '--answer-timeout', '0s', '--out', 'afile'], /3 usage problems; bad\.csv: 30 problem\(s\); nothing was sent/);
    const errors = ran.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(errors.slice(0, 3).map((l) => l.split(':')[1])).toEqual([' --concurrency', ' --answer-timeout', ' --out']);
    expect(errors[3]).toMatch(/^error: bad\.csv:2: `question`/);
    expect(errors[22]).toMatch(/^error: bad\.csv:21: `question`/);
    expect(errors[23]).toBe('error: … and 10 more');
  });

  it('a SITECHAT_STORE_URL that is not PostgreSQL: run, grade, runs and labels name the variable, never echo its password', async () => {
    for (const args of [['run', 'q.csv'], ['grade', 'q.csv'], ['runs'], ['labels', 'export', 'l.csv'], ['labels', 'agreement']]) {
      const ran = await sitechat(dir, args, { ...env, SITECHAT_STORE_URL: 'mysql://user:hunter2-secret@db:3306/x' });
      expect(ran.code, `${args.join(' ')}\n${ran.stderr}`).toBe(2);
      // The wording is pinned in test/unit/reports/pgStore.test.ts; here, that every command names the variable and the scheme.
      expect(ran.stderr).toContain('SITECHAT_STORE_URL must start with postgres://');
      expect(ran.stderr).toContain('got mysql://…');
      expect(ran.stderr + ran.stdout).not.toContain('hunter2');
    }
    expect(sim.stats().requests).toEqual({});
    expect(temporalConnections).toBe(0);
  });

  it('user data echoed in errors reaches the terminal with its control characters escaped', async () => {
    const name = 'red\u001b[31m\u001b]0;pwned\u0007.csv';
    writeFileSync(join(dir, name), 'id,question\nq1,\n');
    const ran = await refused(['run', name], /red\\u001b\[31m\\u001b\]0;pwned\\u0007\.csv:2: `question` is empty/);
    for (const raw of ['\u001b', '\u0007']) expect(ran.stderr).not.toContain(raw);
  });

  it('the other commands: cleanup, schedule, watch, cancel, check', async () => {
    await refused(['cleanup', '--idle-for', 'banana'], /--idle-for: invalid duration "banana"/);
    await refused(['schedule', 'create', 'nightly', '--dataset', 'q.csv', '--cron', '0 2 * * *', '--fail-under', '90'], /--fail-under: must be/);
    await refused(['schedule', 'create', 'nightly', '--dataset', 'q.csv', '--cron', '0 2 * * *', '--baseline', '/nonexistent'], /--baseline: \/nonexistent: no such run directory/);
    await refused(['schedule', 'create', 'cleanup', '--site', 'shop-a,shop-b', '--cron', '0 3 * * *'], /create one schedule per site \(got --site shop-a,shop-b\)/);
    await refused(['watch', '../x'], /<run> must be a run id/);
    await refused(['cancel', 'a/b'], /<run> must be a run id/);
    await refused(['check', '--timeout', 'banana'], /--timeout: invalid duration/);
    await refused(['runs', '--limit', '0'], /--limit must be a whole number >= 1/);
  });

  it('output into a closed pipe (`| head -1`) is dropped quietly: the command ends with its own exit code, no stack trace', async () => {
    for (const args of [['sim', '--help'], ['--help'], ['runs'], ['runs', '--json']]) {
      const ran = await sitechat(dir, args, env, { closedStdout: true });
      expect(ran.code, `${args.join(' ')}\n${ran.stderr}`).toBe(0);
      expect(ran.stderr, args.join(' ')).not.toMatch(/EPIPE|Error|at .*\(/);
    }
    // An error still goes to stderr, and keeps its exit code.
    const failed = await sitechat(dir, ['runs', '--limit', '0'], env, { closedStdout: true });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/--limit must be a whole number >= 1/);
  });

  it('--help and --version exit 0; every command\'s help ends with examples and exit codes', async () => {
    expect((await sitechat(dir, ['--version'], env)).code).toBe(0);
    const commands = [[], ['run'], ['backfill'], ['runs'], ['labels'], ['labels', 'export'], ['labels', 'import'], ['labels', 'agreement'], ['watch'], ['cancel'], ['worker'], ['sim'], ['check'], ['cleanup'], ['schedule'],
      ['schedule', 'create'], ['schedule', 'create', 'nightly'], ['schedule', 'create', 'cleanup'], ['schedule', 'list'], ['schedule', 'describe'],
      ['schedule', 'pause'], ['schedule', 'unpause'], ['schedule', 'trigger'], ['schedule', 'delete']];
    for (const command of commands) {
      const ran = await sitechat(dir, [...command, '--help'], env);
      expect(ran.code, command.join(' ')).toBe(0);
      expect(ran.stdout, command.join(' ')).toMatch(/\nExamples:\n {2}# .+\n {2}\$ .*sitechat .+\n[\s\S]*\nExit codes:\n {2}0 {2}.+\n[\s\S]* {2}2 {2}usage error/);
    }
  }, 120_000);
});
