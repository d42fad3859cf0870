#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { projectRoot } from '../temporal/projectRoot';
import { commands } from './commands';

/**
 * Entry point of the `sitechat` command. Each command lives in its own file under ./commands,
 * registers its options here and loads its action lazily, so `--help` stays fast.
 */
function version(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export function buildProgram(): Command {
  const program = new Command('sitechat')
    .description('Run datasets of questions against a Site Chat assistant, durably, on Temporal.')
    .version(version())
    .showHelpAfterError('(run with --help for usage)');
  for (const register of commands) register(program);
  return program;
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      process.stderr.write(`sitechat: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = process.exitCode || 2;
    });
}
