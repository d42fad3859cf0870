import { Option, type Command } from 'commander';
import { withExamples } from '../../helpText';
import type { RunFlags } from '../run/flags';

export interface BackfillFlags extends RunFlags {
  mode?: 'async' | 'sync';
  closeSessions: boolean;
  resume?: string;
}

export function register(program: Command): void {
  withExamples(program
    .command('backfill')
    .description('Send every question of a dataset and record the answers (per email / session), in dataset order; no grading, no feedback'), [
    ['sitechat backfill questions.csv --site my-site --out answers.csv', 'ask everything, answers in dataset order in answers.csv'],
    ['sitechat backfill questions.csv --mode sync --keep-sessions', 'the blocking chat endpoint; sessions left open'],
    ['sitechat backfill questions.csv --resume 20261122-0412-5f3a9c', 'continue an interrupted backfill without asking twice'],
  ], 'backfill')
    .argument('<dataset>', 'CSV or JSONL file of questions (same columns as evaluation datasets)')
    .option('--site <id>', 'site to ask (default: SITECHAT_SITE_ID, or the simulator demo site)')
    .addOption(new Option('--mode <mode>', 'async submit + polling, or the blocking chat endpoint (60 s ceiling)').choices(['async', 'sync']).default('async'))
    .option('--close-sessions', 'close each conversation\'s session after its last turn', true)
    .option('--keep-sessions', 'leave the sessions open')
    .option('--out <file>', 'answers file, .csv or .jsonl (default: runs/<runId>/answers.csv)')
    .option('--concurrency <n>', 'conversations in flight at once (default 50)')
    .option('--answer-timeout <duration>', 'give up waiting for an answer after this long (default 5m)')
    .option('--reask-failed <n>', 'ask a question again, up to n times, when the service fails it (a `failed` request, a sync 5xx); a first turn in a fresh session (default 2, 0: off)')
    .option('--email <addr>', 'email for rows without one (default: SITECHAT_EMAIL)')
    .option('--model <id>', "model for rows without one (default: the site's default)")
    .option('--delimiter <char>', 'CSV delimiter, when auto-detection is not right')
    .option('--resume <runId>', 'continue an earlier backfill: rows that already have an answer are not sent again')
    .option('--detach', 'start the backfill and return; follow it later with sitechat watch')
    .option('--json', 'print the summary as JSON on stdout')
    .option('--no-worker', 'do not run an in-process worker (workers run elsewhere: sitechat worker)')
    .action(async (dataset: string, flags: BackfillFlags & { keepSessions?: boolean }) => {
      const { runAction } = await import('../run/action.js');
      process.exitCode = await runAction('backfill', dataset, { ...flags, closeSessions: !flags.keepSessions });
    });
}
