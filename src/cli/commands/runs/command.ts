import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import type { RunsFlags } from './action';

export function register(program: Command): void {
  withExamples(program
    .command('runs')
    .description('List finished runs from the results store (SITECHAT_RUNS_DIR, default runs/), newest first; --html writes the pass/error-rate history page'), [
    ['sitechat runs', 'the 20 newest runs: when, dataset, site, model, rows, pass rate, errors, verdict'],
    ['sitechat runs --dataset questions.csv --site my-site --limit 50 --json', 'one dataset on one site, as JSON'],
    ['sitechat runs --html', 'write runs/history.html: pass and error rate over time, linked to each report'],
  ], 'store')
    .option('--dataset <file|sha>', 'only runs of this dataset: its path, file name, or a sha256 prefix of at least 8 hex digits')
    .option('--site <id>', 'only runs on this site')
    .option('--limit <n>', 'list at most this many runs (default 20; the history page has them all)')
    .option('--json', 'print the runs as JSON on stdout')
    .option('--html [file]', 'also write the history page (default runs/history.html)')
    .action(async (flags: RunsFlags) => {
      const { runsAction } = await import('./action.js');
      process.exitCode = await runsAction(flags);
    });
}
