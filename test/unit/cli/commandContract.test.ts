import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { checkApiSettings, usesApi } from '../../../src/cli/apiSettings';
import { buildProgram } from '../../../src/cli/main';

function find(path: string): Command {
  let command = buildProgram();
  for (const name of path.split(' ')) {
    const sub = command.commands.find((c) => c.name() === name);
    if (!sub) throw new Error(`no command ${path}`);
    command = sub;
  }
  return command;
}

/** What `sitechat <path> --help` prints after its options: the exit codes, as `code  meaning` lines. */
function exitCodes(path: string): Map<string, string> {
  const command = find(path);
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  const section = text.slice(text.indexOf('Exit codes:'));
  return new Map([...section.matchAll(/^ {2}(\S+) {2}(.+)$/gmu)].map((m) => [m[1] as string, m[2] as string]));
}

/** Parses `args` as the CLI would, with the action replaced, and returns the command that would run. */
async function parsed(args: string[]): Promise<Command> {
  const program = buildProgram();
  let ran: Command | undefined;
  const stub = (c: Command): void => {
    c.action((...a: unknown[]) => void (ran = a[a.length - 1] as Command));
    for (const sub of c.commands) stub(sub);
  };
  for (const c of program.commands) stub(c);
  await program.parseAsync(args, { from: 'user' });
  if (!ran) throw new Error(`nothing ran for ${args.join(' ')}`);
  return ran;
}

describe('each command\'s --help lists the exit codes its action returns', () => {
  it('run-like commands: 0 passed, 1 gate failed, 2 usage, 3 failed', () => {
    for (const path of ['run', 'grade', 'watch']) expect([...exitCodes(path).keys()], path).toEqual(['0', '1', '2', '3']);
    expect([...exitCodes('backfill').keys()]).toEqual(['0', '2', '3']);
  });

  it('review has no verdict of its own; compare exits 1 only with --reference; check tells settings (2) from failed checks (3)', () => {
    expect([...exitCodes('review').keys()]).toEqual(['0', '2', '3']);
    expect(exitCodes('review').get('0')).toMatch(/stopped/u);
    expect(exitCodes('compare').get('1')).toMatch(/--reference/u);
    expect(exitCodes('check').get('2')).toMatch(/SITECHAT_BASE_URL/u);
    expect(exitCodes('check').get('3')).toMatch(/a check failed/u);
  });

  it('cancel of a finished run exits with its verdict; temporal passes the CLI\'s code through', () => {
    expect([...exitCodes('cancel').keys()]).toEqual(['0', '1', '2', '3']);
    expect(exitCodes('cancel').get('1')).toMatch(/already finished/u);
    expect(exitCodes('temporal').get('N')).toMatch(/passed through/u);
  });

  it('runs and labels name the store, the serving commands a stop, notify test its destinations', () => {
    for (const path of ['runs', 'labels export', 'labels import', 'labels agreement']) expect(exitCodes(path).get('3'), path).toMatch(/results store/u);
    for (const path of ['worker', 'server', 'sim', 'codec-server']) expect(exitCodes(path).get('0'), path).toMatch(/stopped/u);
    expect(exitCodes('notify test').get('3')).toMatch(/destination/u);
  });

  /**
   * The codes each command's action returns, read from the action (`return ExitCode.…`, and what it passes through).
   * Every command the program registers is here, so a new one must say its codes before this passes.
   */
  const ACTION_CODES: Readonly<Record<string, readonly string[]>> = {
    run: ['0', '1', '2', '3'], grade: ['0', '1', '2', '3'], watch: ['0', '1', '2', '3'], cancel: ['0', '1', '2', '3'],
    compare: ['0', '1', '2', '3'], backfill: ['0', '2', '3'], review: ['0', '2', '3'], check: ['0', '2', '3'],
    runs: ['0', '2', '3'], 'labels export': ['0', '2', '3'], 'labels import': ['0', '2', '3'], 'labels agreement': ['0', '2', '3'],
    worker: ['0', '2', '3'], server: ['0', '2', '3'], sim: ['0', '2', '3'], 'codec-server': ['0', '2', '3'], cleanup: ['0', '2', '3'],
    'notify test': ['0', '2', '3'], 'schedule create nightly': ['0', '2', '3'], 'schedule create cleanup': ['0', '2', '3'],
    'schedule list': ['0', '2', '3'], 'schedule describe': ['0', '2', '3'], 'schedule pause': ['0', '2', '3'],
    'schedule unpause': ['0', '2', '3'], 'schedule trigger': ['0', '2', '3'], 'schedule delete': ['0', '2', '3'],
    temporal: ['N', '2', '3'],
  };

  it('every command the program registers lists exactly the codes its action returns', () => {
    const leaves: string[] = [];
    const walk = (command: Command, path: string[]): void => {
      if (command.commands.length === 0) leaves.push(path.join(' '));
      for (const sub of command.commands) walk(sub, [...path, sub.name()]);
    };
    walk(buildProgram(), []);
    expect(leaves.sort()).toEqual(Object.keys(ACTION_CODES).sort());
    for (const path of leaves) expect([...exitCodes(path).keys()], path).toEqual(ACTION_CODES[path]);
  });
});

describe('one SITECHAT_BASE_URL check, before any command that asks the API starts', () => {
  const bad = { SITECHAT_BASE_URL: 'https://chat.example.com/proxy' };

  it('the commands that ask the API from this process', async () => {
    const asks = async (args: string[]): Promise<boolean> => usesApi(await parsed(args));
    for (const args of [['run', 'd.csv'], ['run', 'd.csv', '--no-worker'], ['backfill', 'd.csv'], ['check'], ['cleanup'], ['worker'], ['watch', 'r', '--worker'], ['review', 'r', '--worker'], ['schedule', 'create', 'nightly', '--cron', '0 2 * * *', '--dataset', 'd.csv']]) {
      expect(await asks(args), args.join(' ')).toBe(true);
    }
    for (const args of [['watch', 'r'], ['review', 'r'], ['cancel', 'r'], ['compare', 'a', 'b'], ['runs'], ['grade', 'runs/x'], ['sim'], ['server'], ['schedule', 'list']]) {
      expect(await asks(args), args.join(' ')).toBe(false);
    }
  });

  it('refuses a base URL without /api/v1 with the same message for each (a usage error), and lets a good one or none pass', async () => {
    for (const args of [['run', 'd.csv'], ['check'], ['worker'], ['watch', 'r', '--worker']]) {
      const command = await parsed(args);
      await expect(checkApiSettings(command, bad), args.join(' ')).rejects.toMatchObject({
        name: 'ConfigurationError', message: 'SITECHAT_BASE_URL must end with /api/v1, got https://chat.example.com/proxy — e.g. https://chat.example.com/proxy/api/v1',
      });
      await expect(checkApiSettings(command, { SITECHAT_BASE_URL: 'https://chat.example.com/api/v1' })).resolves.toBeUndefined();
      await expect(checkApiSettings(command, {})).resolves.toBeUndefined();
    }
    await expect(checkApiSettings(await parsed(['compare', 'a', 'b']), bad)).resolves.toBeUndefined();
  });
});
