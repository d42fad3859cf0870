#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { projectRoot } from '../shared/projectRoot';
import { dropOutputToClosedPipes } from './closedPipe';
import { checkApiSettings } from './apiSettings';
import { commands } from './commands';
import { withExamples } from './helpText';

/**
 * Entry point of the `sitechat` command. Each command lives in its own file under ./commands,
 * registers its options here and loads its action lazily, so `--help` stays fast.
 */
function version(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** ExitCode.ok / ExitCode.usage of ./follow, which is not imported here: it loads the Temporal client, and --help stays fast. */
const EXIT_OK = 0;
const EXIT_USAGE = 2;
/** ExitCode.runFailed: a command that crashed did not do what it was asked. */
const EXIT_FAILED = 3;

/** Commander's own exits (unknown option, missing argument, bad choice) throw instead, on every command. */
function overrideExits(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
}

export function buildProgram(): Command {
  const program = withExamples(new Command('sitechat')
    .description('Run datasets of questions against a Site Chat assistant, durably, on Temporal.')
    .version(version())
    .showHelpAfterError('(run with --help for usage)'), [
    ['sitechat run datasets/demo.csv', 'an evaluation against the embedded simulator (no settings needed)'],
    ['sitechat run questions.csv --site my-site --fail-under 90% --baseline latest', 'a CI gate'],
    ['sitechat runs --html', 'past runs, and runs/history.html with the trend'],
  ], 'run');
  for (const register of commands) register(program);
  // One check of SITECHAT_BASE_URL for every command that asks the API, before its action starts anything.
  program.hook('preAction', (_program, action) => checkApiSettings(action));
  overrideExits(program);
  return program;
}

/**
 * `sitechat nosuch --help` would print the main help and exit 0: commander answers `--help` before it looks up the
 * command. When the command path names an unknown command (`nosuch`, `schedule nosuch`, `help nosuch`), the help
 * flags are dropped so that commander reports it, with its suggestion, as the usage error it is.
 */
export function unknownCommandFirst(program: Command, args: readonly string[]): string[] {
  const withoutHelp = (list: readonly string[]): string[] => list.filter((a) => a !== '--help' && a !== '-h');
  let command = program;
  let i = 0;
  for (;;) {
    // No option before a command name takes a value (only --help and --version come there).
    while (args[i]?.startsWith('-')) i += 1;
    const name = args[i];
    if (name === undefined || command.commands.length === 0) return [...args];
    const known = (n: string): Command | undefined => command.commands.find((c) => c.name() === n || c.aliases().includes(n));
    if (name === 'help') {
      // Commander's own help command: `help run` is fine, `help nosuch` is `nosuch`.
      const topic = args[i + 1];
      return topic === undefined || known(topic) ? [...args] : withoutHelp(args.filter((_, j) => j !== i));
    }
    const sub = known(name);
    if (sub === undefined) return withoutHelp(args);
    command = sub;
    i += 1;
  }
}

/**
 * The exit code for an error thrown out of a command: `--help` and `--version` exit 0; every error commander
 * raises is a usage error (exit 2; commander has printed its message already); so is an input or settings error
 * that a command let through (by class). Anything else is a crash: exit 3, a short message here, the stack in a
 * file whose path the message names.
 */
export async function exitCodeFor(err: unknown, write: (text: string) => void): Promise<number> {
  if (err instanceof CommanderError) {
    const shown = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code) && err.exitCode === 0;
    return shown ? EXIT_OK : EXIT_USAGE;
  }
  const message = err instanceof Error ? err.message : String(err);
  // Loaded here, not at the top: they pull in most of the program, and --help stays fast.
  const [{ isUsageError }, { writeCrashReport, scrubSecrets }] = await Promise.all([import('./usageErrors.js'), import('./crashReport.js')]);
  if (isUsageError(err)) {
    write(`sitechat: ${scrubSecrets(message, process.env)}\n`);
    return EXIT_USAGE;
  }
  const report = writeCrashReport(err, process.argv.slice(2));
  write(`sitechat: unexpected error: ${scrubSecrets(message, process.env)}\n`);
  write(report ? `the stack trace is in ${report}; please include it when you report this\n` : 'the stack trace could not be written to the temp directory\n');
  return EXIT_FAILED;
}

/**
 * Node 22.1+ keeps V8's compiled code of the modules a command loads on disk (in the temp directory, per Node version),
 * so the next start skips compiling them: `sitechat run` with a bad dataset uses 0.37 s of CPU instead of 0.55 on
 * Node 24 (BENCHMARKS.md "CLI start-up"). Node 20 has no such cache and starts as before.
 */
function enableCompileCache(): void {
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}

if (require.main === module) {
  enableCompileCache();
  dropOutputToClosedPipes();
  const program = buildProgram();
  program
    .parseAsync(unknownCommandFirst(program, process.argv.slice(2)), { from: 'user' })
    .catch(async (err: unknown) => {
      const code = await exitCodeFor(err, (text) => void process.stderr.write(text));
      process.exitCode = process.exitCode || code;
    });
}
