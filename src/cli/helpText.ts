/** The examples and exit codes that end every command's `--help`. */
import type { Command } from 'commander';
import { FIRST_ASKS } from '../domain/stopEarly';

/** Exit codes of commands that run or follow an evaluation (run, grade, watch); `backfill` has its own, with no gate. */
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

/** `runs` and `labels …` read and write the results store and local files; they never ask the API or Temporal. */
const STORE_EXIT_CODES = [
  ['0', 'done'],
  ['2', 'usage error: a flag or value problem, or a SITECHAT_STORE_URL that is not a PostgreSQL URL'],
  ['3', 'the results store cannot be reached, or a file could not be written'],
] as const;

/** The commands that serve until stopped: `worker`, `server`, `sim`, `codec-server`. */
const SERVICE_EXIT_CODES = [
  ['0', 'stopped (Ctrl-C or SIGTERM) after a clean shutdown'],
  ['2', 'usage error: a flag or setting problem; nothing was started'],
  ['3', 'failed: could not start (a port taken, Temporal unreachable) or stopped on an error'],
] as const;

/** `notify test` delivers a sample message to each destination. */
const NOTIFY_TEST_EXIT_CODES = [
  ['0', 'every destination took the sample message'],
  ['2', 'usage error: a flag, config or variable problem, or no destination; nothing was sent'],
  ['3', 'a destination refused the message or could not be reached (each is named)'],
] as const;

/** `cancel` asks a running run to stop (0); of a finished run it says so and exits with that run's verdict. */
const CANCEL_EXIT_CODES = [
  ['0', 'cancel requested (the run writes its reports and ends cancelled), or the run had already finished and its quality gate held'],
  ['1', 'the run had already finished and its quality gate failed'],
  ['2', 'usage error: not a run or workflow id'],
  ['3', 'no such run, Temporal unreachable, or the run had already finished cancelled or failed'],
] as const;

/** `compare` judges only with --reference. */
const COMPARE_EXIT_CODES = [
  ['0', 'the comparison was written'],
  ['1', 'with --reference: another run is significantly better than the reference'],
  ['2', 'usage error: fewer than two runs, a run named twice, an unknown or unfinished run, another dataset, a bad --alpha'],
  ['3', 'the results store cannot be reached'],
] as const;

/** `review` serves a page until stopped; it has no verdict of its own (each label rewrites the run's). */
const REVIEW_EXIT_CODES = [
  ['0', 'stopped (Ctrl-C or SIGTERM) after serving the page; the labels saved are in the results store'],
  ['2', 'usage error: a flag problem, or a run that is unknown or cannot be reviewed'],
  ['3', 'failed: the results store or Temporal cannot be reached, or the page could not listen'],
] as const;

/** `check` diagnoses: a setting that names no usable API is the user's to fix (2), an API or network problem 3. */
const CHECK_EXIT_CODES = [
  ['0', 'every check passed'],
  ['2', 'usage error: a flag problem, nothing to check, or a setting that names no usable API (SITECHAT_BASE_URL without /api/v1, no SITECHAT_API_KEY)'],
  ['3', 'a check failed: the key, plan, tenant, site or network (each diagnosed)'],
] as const;

/** `temporal` is the Temporal CLI's own exit code, passed through. */
const TEMPORAL_EXIT_CODES = [
  ['N', "the Temporal CLI's own exit code, passed through (0 when it succeeded; 128 + the signal's number when a signal ended it)"],
  ['2', 'usage error: SITECHAT_PAYLOAD_KEYS is malformed'],
  ['3', 'no Temporal CLI could be found or provisioned (set TEMPORAL_CLI_PATH), or it could not be started'],
] as const;

/** Which exit-code table a command's help shows: the codes its action returns. */
export const ExitCodes = {
  run: RUN_EXIT_CODES, backfill: BACKFILL_EXIT_CODES, plain: PLAIN_EXIT_CODES, cancel: CANCEL_EXIT_CODES,
  compare: COMPARE_EXIT_CODES, review: REVIEW_EXIT_CODES, check: CHECK_EXIT_CODES, temporal: TEMPORAL_EXIT_CODES,
  store: STORE_EXIT_CODES, service: SERVICE_EXIT_CODES, notifyTest: NOTIFY_TEST_EXIT_CODES,
} as const;

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
