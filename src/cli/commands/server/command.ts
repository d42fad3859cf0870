import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import type { ServerFlags } from './action';

export function register(program: Command): void {
  withExamples(program
    .command('server')
    .description("A persistent local Temporal dev server with sitechat's settings (one partition per task queue, per-site fairness), until Ctrl-C; prints the TEMPORAL_ADDRESS to export"), [
    ['npx sitechat server', 'on 127.0.0.1:7233, no Web UI, state in .sitechat/server.db'],
    ['npx sitechat server --ui', 'with the Temporal Web UI on 127.0.0.1:8233 (it answers any Host header: docs/deployment.md)'],
    ['npx sitechat server --port 7244 --db-filename /var/lib/sitechat/temporal.db', 'another port, state elsewhere'],
  ], 'service')
    .option('--port <n>', 'gRPC port (TEMPORAL_ADDRESS)', '7233')
    .option('--ui', "start the Temporal Web UI on 127.0.0.1; off by default: it answers any Host header, so a web page using DNS rebinding could read workflow histories while it runs (docs/deployment.md)")
    .option('--ui-port <n>', 'Web UI port, with --ui (default: 8233)')
    .option('--headless', 'no Web UI (the default)')
    .option('--db-filename <file>', 'SQLite file that keeps workflows, schedules and history across restarts', '.sitechat/server.db')
    .option('--log-file <file>', "the server's own log", '.sitechat/server.log')
    .option('--namespace <name>', 'namespace to create', 'default')
    .action(async (flags: ServerFlags) => {
      const { serverAction } = await import('./action.js');
      process.exitCode = await serverAction(flags);
    });
}
