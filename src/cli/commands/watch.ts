import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('watch')
    .description('Follow a run started earlier (or detached): progress, then its summary and exit code')
    .argument('<run>', 'run id or workflow id')
    .option('--json', 'print the summary as JSON on stdout')
    .option('--no-worker', 'do not run an in-process worker')
    .action(async (run: string, flags: { json?: boolean; worker: boolean }) => {
      const { watchAction } = await import('../actions/watch.js');
      process.exitCode = await watchAction(run, flags);
    });
  program
    .command('cancel')
    .description('Cancel a run gracefully: nothing new is asked, questions in flight are waited for, sessions are closed, reports are written (run it again to abandon the questions in flight)')
    .argument('<run>', 'run id or workflow id')
    .action(async (run: string) => {
      const { cancelAction } = await import('../actions/watch.js');
      process.exitCode = await cancelAction(run);
    });
}
