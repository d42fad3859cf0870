import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import type { CheckFlags } from './action';

export function register(program: Command): void {
  withExamples(program
    .command('check')
    .description('Check the API key, tenant, site and network against the Site Chat API, and say in plain words what is wrong'), [
    ['sitechat check', 'the embedded simulator with its demo key (no SITECHAT_BASE_URL)'],
    ['sitechat check --site my-site --tenant my-tenant --timeout 5s', 'key, tenant limits and a site read against the real API'],
  ], 'check')
    .option('--site <id>', 'site to read, or several as a,b,c (default: SITECHAT_SITE_ID, or the simulator demo site)')
    .option('--tenant <id>', "tenant whose limits to read (default: SITECHAT_TENANT_ID; skipped when none)")
    .option('--timeout <duration>', 'give up on a call after this long, e.g. 5s (default 10s)')
    .option('--json', 'print the result as JSON on stdout')
    .action(async (flags: CheckFlags) => {
      const { checkAction } = await import('./action.js');
      process.exitCode = await checkAction(flags);
    });
}
