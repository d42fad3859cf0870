import type { Command } from 'commander';

export interface CheckFlags {
  site?: string;
  tenant?: string;
  timeout?: string;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('check')
    .description('Check the API key, tenant, site and network against the Site Chat API, and say in plain words what is wrong')
    .option('--site <id>', 'site to read (default: SITECHAT_SITE_ID, or the simulator demo site)')
    .option('--tenant <id>', "tenant whose limits to read (default: SITECHAT_TENANT_ID; skipped when none)")
    .option('--timeout <duration>', 'give up on a call after this long, e.g. 5s (default 10s)')
    .option('--json', 'print the result as JSON on stdout')
    .action(async (flags: CheckFlags) => {
      const { checkAction } = await import('../actions/check.js');
      process.exitCode = await checkAction(flags);
    });
}
