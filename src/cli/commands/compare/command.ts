import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import type { CompareFlags } from './action';

export function register(program: Command): void {
  withExamples(program
    .command('compare')
    .description('Compare finished runs of one dataset side by side (pass rates with intervals, win/tie/loss, McNemar with Holm); nothing is asked'), [
    ['sitechat compare 20261122-0412-5f3a9c 20261122-0530-7b1d2e', 'two runs, e.g. two models on one site: writes compare.md, .html, .json, .junit.xml'],
    ['sitechat compare A B C --reference A', 'exit 1 when another run is significantly better than A'],
    ['sitechat compare A B --out comparisons/model-choice --json', 'into a folder of your choice, the comparison as JSON on stdout'],
  ], 'compare')
    .argument('<runs...>', 'two or more run ids (as `sitechat runs` lists them) or run directories (runs/<runId>)')
    .option('--out <dir>', 'write the comparison here (default runs/compare-<first run>-vs-<n-1 more>)')
    .option('--alpha <p>', 'significance level of the tests, after Holm correction (default 0.05)')
    .option('--reference <run>', 'exit 1 when another run is significantly better than this one')
    .option('--any-dataset', 'compare runs of different datasets, pairing rows by id and question')
    .option('--json', 'print the comparison (without rows) as JSON on stdout')
    .action(async (runs: string[], flags: CompareFlags) => {
      const { compareAction } = await import('./action.js');
      process.exitCode = await compareAction(runs, flags);
    });
}
