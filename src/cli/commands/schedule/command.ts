import { Option, type Command } from 'commander';
import { OVERLAP_FLAGS } from '../../../schedules/overlapFlags';
import { withExamples } from '../../helpText';
import { collect } from '../../../notify/flags';
import { cleanupRuleOptions } from '../cleanup/command';
import type { CleanupScheduleFlags, NightlyScheduleFlags, ScheduleOp } from './flags';

async function act(request: ScheduleOp): Promise<void> {
  const { scheduleAction } = await import('./action.js');
  process.exitCode = await scheduleAction(request);
}

const overlapOption = (what: string) => new Option('--overlap <policy>', what).choices(OVERLAP_FLAGS);

function policyOptions(command: Command): Command {
  return command
    .requiredOption('--cron <expr>', 'when to run, a cron expression, e.g. "0 2 * * *" (02:00 every day)')
    .option('--timezone <tz>', 'IANA time zone of the cron expression (default UTC)')
    .option('--id <name>', 'schedule id (default: derived from the kind, site and dataset)')
    .addOption(overlapOption('when a run is due while the previous one still runs (default skip)'))
    .option('--catchup-window <duration>', 'how late a run missed while Temporal was down may still start (default 1h)')
    .option('--pause-on-failure', 'pause the schedule when a run fails')
    .option('--note <text>', 'a note shown with the schedule')
    .option('--paused', 'create the schedule paused')
    .option('--json', 'print the created schedule as JSON');
}

export function register(program: Command): void {
  const schedule = withExamples(program.command('schedule').description('Temporal Schedules for nightly evaluations and session cleanups'), [
    ['sitechat schedule create nightly --dataset /data/questions.csv --cron "0 2 * * *" --fail-under 90%', 'an evaluation every night at 02:00 UTC'],
    ['sitechat schedule list', 'every schedule with its next run'],
    ['sitechat schedule trigger nightly-my-site-questions', 'run a schedule now'],
  ]);
  const create = withExamples(schedule.command('create').description('create a schedule'), [
    ['sitechat schedule create nightly --dataset /data/questions.csv --cron "0 2 * * *" --baseline latest', 'a nightly run compared with the previous one'],
    ['sitechat schedule create cleanup --site my-site --cron "0 * * * *" --idle-for 1d', 'close idle sessions every hour'],
  ]);
  policyOptions(withExamples(create.command('nightly').description('a recurring evaluation run of a dataset (workflow evaluationRun)'), [
    ['sitechat schedule create nightly --dataset /data/questions.csv --cron "0 2 * * *"', 'every night at 02:00 UTC'],
    ['sitechat schedule create nightly --dataset /data/q.csv --cron "30 1 * * 1-5" --timezone Europe/Berlin --fail-under 0.9 --pause-on-failure', 'weekdays, Berlin time; paused after a failed gate'],
  ]))
    .requiredOption('--dataset <file>', 'CSV or JSONL dataset; its absolute path must be readable by the workers')
    .option('--site <id[,id…]>', 'site to ask, or several at once: a,b,c (one report per site plus a combined one; default: SITECHAT_SITE_ID, or the simulator demo site)')
    .option('--baseline <dir|latest>', 'compare each run with a run directory, or the latest finished run (resolved at run time)')
    .option('--fail-under <rate>', 'a run fails its gate below this pass rate, e.g. 0.9 or 90%')
    .option('--max-uncertain-rate <rate>', 'a run fails its gate when more graded rows than this stay uncertain (needs review), e.g. 5% (default 10%)')
    .option('--concurrency <n>', 'conversations in flight at once (default 50)')
    .option('--repeat <n>', 'ask every conversation n times in fresh sessions each night (default 1)')
    .option('--confirm <k>', 'before a run fails on regressed rows, ask them k more times; only regressions that reproduce count (default 2, 0 turns it off)')
    .option('--answer-timeout <duration>', 'give up waiting for an answer after this long (default 5m)')
    .option('--email <addr>', 'email for rows without one (default: SITECHAT_EMAIL)')
    .option('--config <file>', 'run config file, read now: assertions, thresholds, run options')
    .addOption(new Option('--feedback <mode>', 'send good/bad feedback from the grades, or none').choices(['graded', 'none']))
    .option('--model <id>', "model for rows without one (default: the site's default)")
    .option('--delimiter <char>', 'CSV delimiter, when auto-detection is not right')
    .option('--allow-ungraded', 'create it even when no row of the dataset has anything to grade; refused otherwise (exit 2)')
    .option('--notify <kind:ENV>', "notify when each run ends: slack:ENV, teams:ENV or webhook:URL_ENV:SECRET_ENV, naming the workers' environment variables (repeatable; docs/notifications.md)", collect)
    .option('--notify-on <triggers>', 'when to notify: failed, recovered, cancelled, always, comma-separated (default failed,recovered)')
    .action((flags: NightlyScheduleFlags) => act({ op: 'create-nightly', flags }));
  policyOptions(cleanupRuleOptions(withExamples(create.command('cleanup').description('a recurring session cleanup (workflow sessionCleanup)'), [
    ['sitechat schedule create cleanup --site my-site --cron "0 3 * * *"', 'close sessions idle for 7 days, every night'],
    ['sitechat schedule create cleanup --site my-site --cron "0 * * * *" --idle-for 2h --max 5000', 'hourly, at most 5000 sessions a run'],
  ])))
    .action((flags: CleanupScheduleFlags) => act({ op: 'create-cleanup', flags }));
  withExamples(schedule.command('list').description('list the schedules'), [
    ['sitechat schedule list', 'id, kind, state and next run of each schedule'],
    ['sitechat schedule list --json', 'the same as JSON'],
  ]).option('--json', 'print JSON')
    .action((flags: { json?: boolean }) => act({ op: 'list', flags }));
  withExamples(schedule.command('describe').description('show a schedule: action, policies, recent and next runs'), [
    ['sitechat schedule describe nightly-my-site-questions', 'action, policies, recent and next runs'],
    ['sitechat schedule describe nightly-my-site-questions --json', 'the same as JSON'],
  ]).argument('<id>').option('--json', 'print JSON')
    .action((id: string, flags: { json?: boolean }) => act({ op: 'describe', id, flags }));
  withExamples(schedule.command('pause').description('pause a schedule'), [
    ['sitechat schedule pause nightly-my-site-questions', 'no new runs until unpaused'],
    ['sitechat schedule pause nightly-my-site-questions --note "site migration"', 'with a note shown in describe'],
  ]).argument('<id>').option('--note <text>', 'why it is paused')
    .action((id: string, flags: { note?: string }) => act({ op: 'pause', id, flags }));
  withExamples(schedule.command('unpause').description('resume a paused schedule'), [
    ['sitechat schedule unpause nightly-my-site-questions', 'runs start again at the next cron time'],
    ['sitechat schedule unpause nightly-my-site-questions --note "migration done"', 'with a note'],
  ]).argument('<id>').option('--note <text>', 'a note')
    .action((id: string, flags: { note?: string }) => act({ op: 'unpause', id, flags }));
  withExamples(schedule.command('trigger').description('run a schedule now'), [
    ['sitechat schedule trigger nightly-my-site-questions', 'start a run now (skipped while one runs, by default)'],
    ['sitechat schedule trigger nightly-my-site-questions --overlap allow-all', 'start one even while another runs'],
  ]).argument('<id>')
    .addOption(overlapOption("override the schedule's overlap policy for this run (e.g. allow-all)"))
    .option('--json', 'print the started workflow id as JSON')
    .action((id: string, flags: { overlap?: string; json?: boolean }) => act({ op: 'trigger', id, flags }));
  withExamples(schedule.command('delete').description('delete a schedule (runs already started go on)'), [
    ['sitechat schedule delete nightly-my-site-questions', 'no more runs; runs already started go on'],
    ['sitechat schedule list --json', 'find the id first'],
  ]).argument('<id>')
    .action((id: string) => act({ op: 'delete', id, flags: {} }));
}
