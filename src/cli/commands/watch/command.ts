import type { Command } from 'commander';
import { withExamples } from '../../helpText';

export function register(program: Command): void {
  withExamples(program
    .command('watch')
    .description('Follow a run started earlier (or detached): progress, then its summary and exit code'), [
    ['sitechat watch 20261122-0412-5f3a9c', 'follow a detached run; exits with its verdict'],
    ['sitechat watch sitechat-evaluation-20261122-0412-5f3a9c --json', 'by workflow id; the summary as JSON'],
    ['sitechat watch sitechat-evaluation-nightly-demo-site-demo-2026-11-23T17:05:11Z', 'a scheduled run, as `schedule trigger` prints it'],
    ['sitechat watch 20261122-0412-5f3a9c --worker', 'finish a run of this directory\'s embedded server (its command was killed) with a worker of its own'],
  ], 'run')
    .argument('<run>', 'run id, or workflow id as `run` and `schedule trigger` print it')
    .option('--json', 'print the summary as JSON on stdout')
    .option('--worker', 'also run an in-process worker, asking SITECHAT_BASE_URL (or the built-in simulator, on an embedded server this command starts); it takes any run\'s tasks on this server, and refuses those of runs of another API')
    .option('--no-worker', 'follow only (the default): the run goes on on the workers of its Temporal server')
    .action(async (run: string, flags: { json?: boolean; worker?: boolean }) => {
      const { watchAction } = await import('./action.js');
      process.exitCode = await watchAction(run, { ...flags, worker: flags.worker === true });
    });
  withExamples(program
    .command('cancel')
    .description('Cancel a run gracefully: nothing new is asked, questions in flight are waited for, sessions are closed, reports are written (run it again to abandon the questions in flight); of a run that has finished, prints its verdict and exits with it'), [
    ['sitechat cancel 20261122-0412-5f3a9c', 'stop asking; sessions closed and reports written'],
    ['sitechat cancel 20261122-0412-5f3a9c && sitechat cancel 20261122-0412-5f3a9c', 'the second cancel abandons the questions in flight'],
  ], 'cancel')
    .argument('<run>', 'run id, or workflow id as `run` and `schedule trigger` print it')
    .action(async (run: string) => {
      const { cancelAction } = await import('./action.js');
      process.exitCode = await cancelAction(run);
    });
}
