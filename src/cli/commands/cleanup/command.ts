import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import { collect } from '../../../notify/flags';
import type { CleanupCommandFlags } from './action';

/** The rule and limit options, shared with `sitechat schedule create cleanup`. */
export function cleanupRuleOptions(command: Command): Command {
  return command
    .option('--site <id>', 'site whose sessions to close; `sitechat cleanup` also takes a,b,c (default: SITECHAT_SITE_ID, or the simulator demo site)')
    .option('--email <addr>', "only this user's sessions (the API's email filter)")
    .option('--idle-for <duration>', 'close sessions idle at least this long, e.g. 7d, 36h, 0s (default 7d unless --created-before is given)')
    .option('--created-before <date>', 'close sessions created before this date (2026-01-31 = midnight UTC) or date-time with zone')
    .option('--max <n>', 'close at most this many sessions')
    .option('--dry-run', 'list what would be closed; close nothing')
    .option('--page-size <n>', 'sessions per list call, 1–500 (default 500)')
    .option('--notify <kind:ENV>', "notify when the cleanup ends: slack:ENV, teams:ENV or webhook:URL_ENV:SECRET_ENV, naming the worker's environment variables (repeatable; docs/notifications.md)", collect)
    .option('--notify-on <triggers>', 'when to notify: failed, recovered, cancelled, always, comma-separated (default failed,recovered)');
}

export function register(program: Command): void {
  cleanupRuleOptions(withExamples(program
    .command('cleanup')
    .description("Close a site's active sessions that match a rule (idle time, creation date, email); idempotent"), [
    ['sitechat cleanup --site my-site --dry-run', 'list the sessions idle for 7 days; close nothing'],
    ['sitechat cleanup --site my-site --created-before 2026-01-31 --max 1000', 'close at most 1000 sessions created before that date'],
    ['sitechat cleanup --site my-site --email a@example.com --idle-for 0s', "close all of one user's open sessions"],
  ]))
    .option('--json', 'print the cleanup report as JSON on stdout')
    .option('--no-worker', 'do not run an in-process worker (workers run elsewhere: sitechat worker)')
    .action(async (flags: CleanupCommandFlags) => {
      const { cleanupAction } = await import('./action.js');
      process.exitCode = await cleanupAction(flags);
    });
}
