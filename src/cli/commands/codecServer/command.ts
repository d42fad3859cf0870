import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import { DEFAULT_UI_ORIGINS, type CodecServerFlags } from './flags';

export function register(program: Command): void {
  withExamples(program
    .command('codec-server')
    .description('Decode (and encode) encrypted payloads for the Temporal Web UI and CLI, with SITECHAT_PAYLOAD_KEYS: on 127.0.0.1, with a token, CORS for the Web UI only; until Ctrl-C'), [
    ['SITECHAT_PAYLOAD_KEYS=… npx sitechat codec-server', 'on 127.0.0.1:8888 for the Web UI at :8233; prints the endpoint and the token'],
    ['npx sitechat codec-server --port 8899 --ui-origin https://temporal.example.internal', 'another port, a Temporal UI served elsewhere'],
  ], 'service')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free one)', '8888')
    .option('--ui-origin <origin>', `an origin of the Temporal Web UI that may call it from a browser; repeat for several (default ${DEFAULT_UI_ORIGINS.join(' and ')})`, (v: string, all: string[]) => [...all, v], [])
    .action(async (flags: CodecServerFlags) => {
      const { codecServerAction } = await import('./action.js');
      process.exitCode = await codecServerAction(flags);
    });
}
