/** The examples and exit codes that end every command's `--help`. */
import type { Command } from 'commander';
import { FIRST_ASKS } from '../domain/stopEarly';

/** Exit codes of commands that run a dataset (run, backfill, watch); the others use 0, 2 and 3 only. */
const RUN_EXIT_CODES = [
  ['0', 'the run finished and the quality gate held'],
  ['1', 'the quality gate failed (pass rate, significant regression, missing rows)'],
  ['2', `usage error: a flag, path, config or dataset problem; nothing was sent. Also a run whose first ${FIRST_ASKS} questions the API all refused as invalid (400): the rest were not sent`],
  ['3', 'the run failed or was cancelled (API, Temporal, network)'],
] as const;

/** A backfill has no quality gate: it finished, or it did not. */
const BACKFILL_EXIT_CODES = [
  ['0', 'the backfill finished: every row has a recorded outcome (rows the API refused are `error` rows in the answers file)'],
  ['2', `usage error: a flag, path or dataset problem; nothing was sent. Also a backfill whose first ${FIRST_ASKS} questions the API all refused as invalid (400): the rest were not sent`],
  ['3', 'the backfill failed or was cancelled (API, Temporal, network)'],
] as const;

const PLAIN_EXIT_CODES = [
  ['0', 'done'],
  ['2', 'usage error: a flag or value problem; nothing was sent'],
  ['3', 'failed (API, Temporal, network)'],
] as const;

/** Which exit-code table a command's help shows. */
export const ExitCodes = { run: RUN_EXIT_CODES, backfill: BACKFILL_EXIT_CODES, plain: PLAIN_EXIT_CODES } as const;

/** The text after a command's options: two or three examples, then its exit codes. */
export function helpFooter(examples: readonly (readonly [string, string])[], codes: keyof typeof ExitCodes = 'plain'): string {
  const lines = ['', 'Examples:'];
  for (const [cmd, what] of examples) lines.push(`  # ${what}`, `  $ ${cmd}`);
  lines.push('', 'Exit codes:');
  for (const [code, what] of ExitCodes[codes]) lines.push(`  ${code}  ${what}`);
  return lines.join('\n');
}

/** Adds the examples and exit codes to `command`'s help; returns the command for chaining. */
export function withExamples(command: Command, examples: readonly (readonly [string, string])[], codes: keyof typeof ExitCodes = 'plain'): Command {
  return command.addHelpText('after', helpFooter(examples, codes));
}
