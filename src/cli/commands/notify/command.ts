import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import { collect } from '../../../notify/flags';
import type { NotifyTestFlags } from './action';

export function register(program: Command): void {
  const notify = program.command('notify').description('notifications when runs and cleanups end (docs/notifications.md)');
  withExamples(notify.command('test').description('send a sample message to each destination, from this process (its environment holds the URLs and secrets)'), [
    ['SITECHAT_SLACK_WEBHOOK=https://hooks.slack.com/… sitechat notify test --notify slack:SITECHAT_SLACK_WEBHOOK', 'check a Slack webhook before a nightly run relies on it'],
    ['sitechat notify test --config sitechat.config.yaml', "the config file's `notify` destinations"],
  ], 'notifyTest')
    .option('--notify <kind:ENV>', 'slack:ENV, teams:ENV or webhook:URL_ENV:SECRET_ENV (repeatable)', collect)
    .option('--config <file>', "run config file whose `notify` destinations to test")
    .action(async (flags: NotifyTestFlags) => {
      const { notifyTestAction } = await import('./action.js');
      process.exitCode = await notifyTestAction(flags);
    });
}
