import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('worker')
    .description('Run a standalone worker for all task queues (deployments): API key and base URL from this environment')
    .option('--queues <names>', 'comma-separated task queues to poll (default: all)')
    .action(async (flags: { queues?: string }) => {
      const { workerAction } = await import('../actions/worker.js');
      process.exitCode = await workerAction(flags);
    });
}
