#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { projectRoot } from '../temporal/projectRoot';
import { dropOutputToClosedPipes } from './closedPipe';
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
  overrideExits(program);
  return program;
}

/**
 * The exit code for an error thrown out of a command: `--help` and `--version` exit 0; every error commander
 * raises is a usage error (exit 2; commander has printed its message already); anything else is printed here.
 */
export function exitCodeFor(err: unknown, write: (text: string) => void): number {
  if (err instanceof CommanderError) {
    const shown = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code) && err.exitCode === 0;
    return shown ? EXIT_OK : EXIT_USAGE;
  }
  write(`sitechat: ${err instanceof Error ? err.message : String(err)}\n`);
  return EXIT_USAGE;
}

if (require.main === module) {
  dropOutputToClosedPipes();
  buildProgram()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      const code = exitCodeFor(err, (text) => void process.stderr.write(text));
      process.exitCode = process.exitCode || code;
    });
}
