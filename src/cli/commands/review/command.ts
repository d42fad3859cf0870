import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import type { ReviewFlags } from './action';

export function register(program: Command): void {
  withExamples(program
    .command('review')
    .description('Settle rows by hand on a local page: uncertain, regressed and failed rows, then spot checks of passed ones; each label rewrites the run\'s verdict and reports and sends the row\'s feedback once'), [
    ['sitechat review latest', 'the newest finished evaluation run; open the printed URL'],
    ['sitechat review 20261122-0412-5f3a9c --sample 25 --by ana', '25 passed rows for spot checks; labels signed "ana"'],
    ['sitechat review 20261122-0412-5f3a9c --worker', 'send the feedback of settled rows from here too (a worker asking SITECHAT_BASE_URL)'],
  ], 'review')
    .argument('[run]', 'run id (a multi-site run\'s id reviews every site), or `latest`', 'latest')
    .option('--host <address>', 'address to listen on; anything but loopback lets others on the network reach the page (with the token)', '127.0.0.1')
    .option('--port <n>', 'port to listen on; 0 picks a free one', '0')
    .option('--sample <n>', 'passed rows drawn at random for spot checks (default 10; 0 for none)')
    .option('--seed <text>', 'seed of the spot-check draw (default: the run id, so every start shows the same rows)')
    .option('--limit <n>', 'rows in the queue at most (default 1000)')
    .option('--by <name>', 'who labels, saved with each label (default: the OS user name)')
    .option('--worker', 'also run an in-process worker, asking SITECHAT_BASE_URL (or the built-in simulator, on an embedded server this command starts): it sends the feedback of settled rows, and takes any run\'s tasks on this server (refusing those of runs of another API)')
    .option('--no-worker', 'no in-process worker (the default): the feedback of settled rows goes out on the `sitechat worker` processes')
    .option('--json', 'print {"url", "runId"} as JSON on stdout instead of the URL')
    .action(async (run: string, flags: ReviewFlags) => {
      const { reviewAction } = await import('./action.js');
      process.exitCode = await reviewAction(run, flags);
    });
}
