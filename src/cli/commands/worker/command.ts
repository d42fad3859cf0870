import type { Command } from 'commander';
import { withExamples } from '../../helpText';

export function register(program: Command): void {
  withExamples(program
    .command('worker')
    .description('Run a standalone worker for all task queues (deployments): API key and base URL from this environment'), [
    ['TEMPORAL_ADDRESS=temporal:7233 SITECHAT_BASE_URL=https://chat.example.com/api/v1 sitechat worker', 'poll every task queue'],
    ['sitechat worker --queues sitechat-runner,sitechat-submit', 'poll two task queues only'],
  ], 'service')
    .option('--queues <names>', 'comma-separated task queues to poll (default: all)')
    .action(async (flags: { queues?: string }) => {
      const { workerAction } = await import('./action.js');
      process.exitCode = await workerAction(flags);
    });
}
