import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import type { GradeFlags } from './action';

export function register(program: Command): void {
  withExamples(program
    .command('grade')
    .description('Grade recorded answers again, offline: same graders, reports and exit codes as `run`; nothing is sent to the Site Chat API'), [
    ['sitechat grade runs/20261122-0412-5f3a9c --config sitechat.config.yaml', "a run's answers again with a new threshold or rubric"],
    ['sitechat grade answers.csv --out graded/ --fail-under 90%', 'a CSV with id,question,expected,answer; exit 1 below 90%'],
    ['sitechat grade runs/20261122-0412-5f3a9c --baseline latest', 'and compare with the newest compatible run'],
  ], 'run')
    .argument('<input>', "a previous run's directory (runs/<runId>), or a CSV/JSONL file with the dataset columns plus `answer` (optional confidence_score, latency_ms)")
    .option('--config <file>', 'run config file (sitechat.config.yaml): default assertions and thresholds')
    .option('--baseline <dir|latest>', 'compare with a previous run directory, or the latest finished run of the same dataset and site')
    .option('--fail-under <rate>', 'fail (exit 1) when the pass rate is below this, e.g. 0.9 or 90%')
    .option('--max-error-rate <rate>', 'rows without an answer (error, timed_out) allowed before the gate fails, e.g. 0.05 or 5% (default 0)')
    .option('--max-uncertain-rate <rate>', 'graded rows that stay uncertain (needs review) allowed before the gate fails, e.g. 0.05 or 5% (default 10%)')
    .option('--out <dir>', 'write the report files here instead of runs/<runId>/')
    .option('--site <id>', 'site the answers came from, for labels and baselines (default: the run\'s site, else "offline")')
    .option('--delimiter <char>', 'CSV delimiter, when auto-detection is not right')
    .option('--concurrency <n>', 'rows graded at once by graders that wait (LLM judge, custom modules) (default 8)')
    .option('--json', 'print the summary as JSON on stdout')
    .action(async (input: string, flags: GradeFlags) => {
      const { gradeAction } = await import('./action.js');
      process.exitCode = await gradeAction(input, flags);
    });
}
