import { Option, type Command } from 'commander';
import type { CleanupFlags } from '../../cleanup/options';
import { OverlapFlag, type SchedulePolicyFlags } from '../../schedules/policy';
import { cleanupRuleOptions } from './cleanup';

export interface NightlyScheduleFlags extends SchedulePolicyFlags {
  dataset: string;
  site?: string;
  baseline?: string;
  failUnder?: string;
  concurrency?: string;
  answerTimeout?: string;
  email?: string;
  config?: string;
  feedback?: string;
  model?: string;
  delimiter?: string;
  json?: boolean;
}
export type CleanupScheduleFlags = SchedulePolicyFlags & CleanupFlags & { json?: boolean };
export type ScheduleOp =
  | { op: 'create-nightly'; flags: NightlyScheduleFlags }
  | { op: 'create-cleanup'; flags: CleanupScheduleFlags }
  | { op: 'list'; flags: { json?: boolean } }
  | { op: 'describe'; id: string; flags: { json?: boolean } }
  | { op: 'pause' | 'unpause'; id: string; flags: { note?: string } }
  | { op: 'trigger'; id: string; flags: { overlap?: string; json?: boolean } }
  | { op: 'delete'; id: string; flags: Record<string, never> };

async function act(request: ScheduleOp): Promise<void> {
  const { scheduleAction } = await import('../actions/schedule.js');
  process.exitCode = await scheduleAction(request);
}

const overlapOption = (what: string) => new Option('--overlap <policy>', what).choices(Object.keys(OverlapFlag));

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
  const schedule = program.command('schedule').description('Temporal Schedules for nightly evaluations and session cleanups');
  const create = schedule.command('create').description('create a schedule');
  policyOptions(create.command('nightly').description('a recurring evaluation run of a dataset (workflow evaluationRun)'))
    .requiredOption('--dataset <file>', 'CSV or JSONL dataset; its absolute path must be readable by the workers')
    .option('--site <id>', 'site to ask (default: SITECHAT_SITE_ID, or the simulator demo site)')
    .option('--baseline <dir|latest>', 'compare each run with a run directory, or the latest finished run (resolved at run time)')
    .option('--fail-under <rate>', 'a run fails its gate below this pass rate, e.g. 0.9 or 90%')
    .option('--concurrency <n>', 'conversations in flight at once (default 50)')
    .option('--answer-timeout <duration>', 'give up waiting for an answer after this long (default 5m)')
    .option('--email <addr>', 'email for rows without one (default: SITECHAT_EMAIL)')
    .option('--config <file>', 'run config file, read now: assertions, thresholds, run options')
    .addOption(new Option('--feedback <mode>', 'send good/bad feedback from the grades, or none').choices(['graded', 'none']))
    .option('--model <id>', "model for rows without one (default: the site's default)")
    .option('--delimiter <char>', 'CSV delimiter, when auto-detection is not right')
    .action((flags: NightlyScheduleFlags) => act({ op: 'create-nightly', flags }));
  policyOptions(cleanupRuleOptions(create.command('cleanup').description('a recurring session cleanup (workflow sessionCleanup)')))
    .action((flags: CleanupScheduleFlags) => act({ op: 'create-cleanup', flags }));
  schedule.command('list').description('list the schedules').option('--json', 'print JSON')
    .action((flags: { json?: boolean }) => act({ op: 'list', flags }));
  schedule.command('describe').description('show a schedule: action, policies, recent and next runs').argument('<id>').option('--json', 'print JSON')
    .action((id: string, flags: { json?: boolean }) => act({ op: 'describe', id, flags }));
  schedule.command('pause').description('pause a schedule').argument('<id>').option('--note <text>', 'why it is paused')
    .action((id: string, flags: { note?: string }) => act({ op: 'pause', id, flags }));
  schedule.command('unpause').description('resume a paused schedule').argument('<id>').option('--note <text>', 'a note')
    .action((id: string, flags: { note?: string }) => act({ op: 'unpause', id, flags }));
  schedule.command('trigger').description('run a schedule now').argument('<id>')
    .addOption(overlapOption("override the schedule's overlap policy for this run (e.g. allow-all)"))
    .option('--json', 'print the started workflow id as JSON')
    .action((id: string, flags: { overlap?: string; json?: boolean }) => act({ op: 'trigger', id, flags }));
  schedule.command('delete').description('delete a schedule (runs already started go on)').argument('<id>')
    .action((id: string) => act({ op: 'delete', id, flags: {} }));
}
