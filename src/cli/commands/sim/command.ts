import { Option, type Command } from 'commander';
import { withExamples } from '../../helpText';
import type { SimFlags } from './action';

export function register(program: Command): void {
  withExamples(program
    .command('sim')
    .description('Run the Site Chat API simulator (demo knowledge base, demo API key) until Ctrl-C'), [
    ['sitechat sim --port 8787 --latency-scale 0.1', 'answers 10× faster than the real service'],
    ['sitechat sim --fail-rate 0.05 --seed 7 --json', '5% of calls fail with 500; prints the base URL and demo key as JSON'],
  ], 'service')
    .option('--port <n>', 'TCP port, 0 for a free one', '8787')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--fixtures <file>', 'tenants, keys, sites and documents (default: datasets/knowledge-base.json)')
    .option('--latency-scale <x>', 'multiplies answer times (5–30 s) and the 60 s sync ceiling, e.g. 0.1', '1')
    .option('--rate-limit <n>', 'requests per second per client IP and path, 0 = off', '5')
    .addOption(new Option('--rate-limit-window <kind>', 'rate-limit window').choices(['fixed', 'sliding']).default('fixed'))
    .addOption(new Option('--rate-limit-scope <scope>', 'what a rate-limited path is: as requested, or the route (all status polls of a site count as one)').choices(['path', 'route']).default('path'))
    .option('--seed <n>', 'seed for latencies, faults and model noise (ids are random UUIDs)', '1')
    .option('--model-noise <rate>', 'per-request nondeterminism of the models: RATE for all, or MODEL=RATE[,MODEL=RATE] (0..1, default 0)')
    .addOption(new Option('--admin-token <token>', 'token the /__sim admin routes require (generated and printed when --host is not loopback)').env('SITECHAT_SIM_ADMIN_TOKEN'))
    .option('--state <file>', 'keep sessions, requests and feedback in this JSON file across restarts')
    .option('--retention <ms>', 'how long requests stay visible to status/feedback (default 86400000 = 24 h)')
    .addOption(new Option('--closed-session-chat <mode>', 'chat on a closed session').choices(['reject', 'accept']).default('reject'))
    .addOption(new Option('--close-unknown-session <mode>', 'close of an unknown session').choices(['not-found', 'ok']).default('not-found'))
    .addOption(new Option('--list-limit-policy <mode>', 'session list limit outside 1..500').choices(['reject', 'clamp']).default('reject'))
    .addOption(new Option('--unknown-model <mode>', 'chat with an unknown model').choices(['reject', 'fallback']).default('reject'))
    .addOption(new Option('--feedback-resubmit <mode>', 'timestamp on same-value feedback').choices(['original', 'omit']).default('original'))
    .addOption(new Option('--feedback-uuid-check <ids>', 'feedback ids that must be UUIDs').choices(['both', 'request', 'none']).default('both'))
    .addOption(new Option('--session-order <order>', 'order of the session list').choices(['newest-first', 'oldest-first', 'unsorted']).default('newest-first'))
    .addOption(new Option('--id-format <form>', 'request and generated session ids').choices(['uuid', 'opaque']).default('uuid'))
    .addOption(new Option('--timestamps <form>', 'timestamps in responses: …Z, microseconds with offsets, or no zone').choices(['utc', 'offset', 'naive']).default('utc'))
    .addOption(new Option('--error-body <form>', 'body of error responses').choices(['json', 'html', 'empty']).default('json'))
    .addOption(new Option('--limits-body <form>', 'tenant limits body').choices(['full', 'no-models', 'empty']).default('full'))
    .option('--extra-fields', 'add fields the spec does not list to every response object')
    .option('--base-path <path>', 'serve the API under this path, ending in /api/v1 (default /api/v1)')
    .option('--retry-after <s>', 'Retry-After of a 429 in seconds, or `none`', '1')
    .addOption(new Option('--retry-after-format <form>', 'Retry-After as seconds or an HTTP date').choices(['seconds', 'http-date']).default('seconds'))
    .option('--no-sync-confidence', 'leave confidence_* out of sync answers')
    .option('--no-status-confidence', 'leave confidence_* out of completed status responses')
    .option('--fail-rate <p>', 'probability of 500 `failed to call rag service` (all endpoints)')
    .option('--async-fail-rate <p>', 'probability that a chat request ends `failed`')
    .option('--drop-rate <p>', 'probability that a processed request gets no response (connection reset)')
    .option('--extra-latency <ms>', 'delay before every request is handled')
    .option('--processing-delay <ms>', 'added to every chat completion time (not scaled)')
    .option('--rate-limit-burst <n>', 'the first N requests get 429')
    .option('--faults <json|file>', 'per-endpoint fault config, e.g. \'{"chat.async":{"dropRate":0.1}}\'')
    .option('--trust-forwarded-for', 'take the client IP from X-Forwarded-For (rate limiting per simulated client)')
    .option('--json', 'print { baseUrl, apiKey, adminUrl, judgeBaseUrl } as JSON on stdout')
    .action(async (flags: SimFlags) => {
      const [{ simAction }, { createLogger }] = await Promise.all([import('./action.js'), import('../../logger.js')]);
      process.exitCode = await simAction(flags, createLogger());
    });
}
