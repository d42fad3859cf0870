import { Option, type Command } from 'commander';
import { withExamples } from '../../helpText';
import { collect } from '../../../notify/flags';
import type { RunFlags } from './flags';

export function register(program: Command): void {
  withExamples(program
    .command('run')
    .description('Run an evaluation: ask every question of a dataset, grade the answers, send feedback, close the sessions, write the report'), [
    ['sitechat run datasets/demo.csv', 'the demo dataset against the embedded simulator'],
    ['sitechat run questions.csv --site my-site --fail-under 90% --baseline latest', 'a CI gate: exit 1 below 90% or on a significant regression'],
    ['sitechat run questions.jsonl --config sitechat.config.yaml --out reports/', 'default assertions from a config file; reports in reports/'],
    ['sitechat run questions.csv --site shop-de,shop-fr,shop-it --fail-under 90%', 'three sites at once; passes when every site passes'],
    ['sitechat run questions.csv --model gpt-4o-mini,gpt-3.5-mini-sim --reference gpt-4o-mini', 'two models side by side; fails when the second is significantly better'],
    ['sitechat run questions.csv --baseline latest --notify slack:SITECHAT_SLACK_WEBHOOK --notify-on failed,recovered', 'tell a Slack channel when the gate fails or recovers'],
  ], 'run')
    .argument('<dataset>', 'CSV or JSONL file of questions (see README, "Datasets")')
    .option('--site <id[,id…]>', 'site to ask, or several at once: a,b,c (one report per site plus a combined one; default: SITECHAT_SITE_ID, or the simulator demo site)')
    .option('--config <file>', 'run config file (sitechat.config.yaml): default assertions, thresholds, run options')
    .option('--concurrency <n>', 'conversations in flight at once (default 50)')
    .addOption(new Option('--feedback <mode>', 'send good/bad feedback from the grades, or none (default graded)').choices(['graded', 'none']))
    .option('--answer-timeout <duration>', 'give up waiting for an answer after this long, e.g. 90s, 5m (default 5m)')
    .option('--email <addr>', 'email for rows without one (default: SITECHAT_EMAIL)')
    .option('--model <id[,id…]>', "model for rows without one (default: the site's default), or several to compare: a,b (one run per model and a comparison)")
    .option('--baseline <dir|latest>', 'compare with a previous run directory, or the latest finished run of this dataset and site')
    .option('--fail-under <rate>', 'fail (exit 1) when the pass rate is below this, e.g. 0.9 or 90%')
    .option('--max-error-rate <rate>', 'fail (exit 1) when more rows than this end in error or time-out, e.g. 0.05 or 5% (default 0)')
    .option('--reask-failed <n>', 'ask a question again, up to n times, when the service fails it (a `failed` request, a sync 5xx); a first turn in a fresh session (default 2, 0: off)')
    .option('--max-uncertain-rate <rate>', 'fail (exit 1) when more graded rows than this stay uncertain (needs review), e.g. 0.05 or 5% (default 10%)')
    .option('--repeat <n>', 'ask every conversation n times in fresh sessions and grade each answer: reports give each row k of n, flaky rows, and an interval (default 1)')
    .option('--confirm <k>', 'when the baseline comparison would fail the gate, ask the regressed rows k more times in fresh sessions; only regressions most of them reproduce count (default 0: off)')
    .option('--reference <variant>', 'matrix runs: fail (exit 1) when another variant is significantly better than this one (McNemar, Holm-adjusted)')
    .option('--allow-side-effect-failures', 'lost feedback and sessions left open only warn instead of failing the gate')
    .option('--allow-ungraded', 'start even when no row has anything to grade (no `expected`, no assertion column, no config assertion); refused otherwise (exit 2)')
    .option('--notify <kind:ENV>', "notify when the run ends: slack:ENV, teams:ENV or webhook:URL_ENV:SECRET_ENV, naming the worker's environment variables that hold the URL and secret (repeatable; docs/notifications.md)", collect)
    .option('--notify-on <triggers>', 'when to notify: failed, recovered, cancelled, always, comma-separated (default failed,recovered)')
    .option('--out <dir>', 'write the report files here instead of runs/<runId>/')
    .option('--delimiter <char>', 'CSV delimiter, when auto-detection is not right')
    .option('--detach', 'start the run and return; follow it later with sitechat watch')
    .option('--json', 'print the summary as JSON on stdout')
    .option('--no-worker', 'do not run an in-process worker (workers run elsewhere: sitechat worker)')
    .action(async (dataset: string, flags: RunFlags) => {
      const { runAction } = await import('./action.js');
      process.exitCode = await runAction('evaluation', dataset, flags);
    });
}
