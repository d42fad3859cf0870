/**
 * Throughput of the Site Chat simulator (rate limiting off): autocannon against GET sessions,
 * POST chat/async and GET status, ~10 s each. The simulator runs in a child process so that the
 * load generator does not share its event loop.
 *
 *   npm run build && node dist/bench/sim-throughput.js [--duration 10] [--connections 20] [--write-docs]
 *
 * `--write-docs` replaces the "Throughput" section of docs/simulator.md with the results.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { DEMO, startSimulator } from '../src/sim';
import { projectRoot } from '../src/shared/projectRoot';

interface Row {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** Child process: run the simulator and report its base URL. */
async function serve(): Promise<void> {
  const sim = await startSimulator({ port: 0, rateLimit: 0, latencyScale: 0.001 });
  process.send?.({ baseUrl: sim.baseUrl });
  process.on('disconnect', () => void sim.close().then(() => process.exit(0)));
}

function startChild(): Promise<{ child: ChildProcess; baseUrl: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve({ child, baseUrl: (m as { baseUrl: string }).baseUrl }));
    child.once('exit', (code) => reject(new Error(`simulator child exited with ${String(code)}`)));
  });
}

const headers = { 'x-api-key': DEMO.apiKey, 'content-type': 'application/json' };

async function load(name: string, opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ ...opts, headers });
  return { name, reqPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function main(): Promise<void> {
  const duration = arg('duration', 10);
  const connections = arg('connections', 20);
  const { child, baseUrl } = await startChild();
  const site = `${baseUrl}/m2m/sites/${DEMO.siteId}`;
  try {
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${site}/chat/async`, { method: 'POST', headers, body: JSON.stringify({ message: `How do I reset my password? (${i})`, email: 'bench@example.com' }) });
      ids.push(((await res.json()) as { request_id: string }).request_id);
    }
    let n = 0;
    const statusPath = new URL(`${site}/chat/requests/`).pathname;
    const rows = [
      await load('GET sessions (200 sessions, limit 50)', { url: `${site}/sessions`, duration, connections }),
      await load('POST chat/async (new session each)', {
        url: `${site}/chat/async`, method: 'POST', duration, connections,
        body: JSON.stringify({ message: 'How do I share a folder with someone?', email: 'bench@example.com' }),
      }),
      await load('GET chat/requests/{id} (200 ids)', {
        url: `${site}/sessions`, duration, connections,
        requests: [{ setupRequest: (req) => ({ ...req, path: `${statusPath}${ids[n++ % ids.length] ?? ''}` }) }],
      }),
    ];
    report(rows, { duration, connections });
  } finally {
    child.disconnect();
  }
}

function report(rows: Row[], run: { duration: number; connections: number }): void {
  const cpu = cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}`;
  const table = [
    '| endpoint | req/s | p50 ms | p99 ms | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${Math.round(r.reqPerSec)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`),
  ].join('\n');
  const section = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}.`,
    `Command: \`npm run build && node dist/bench/sim-throughput.js --duration ${run.duration} --connections ${run.connections}\``,
    '(simulator in a child process, rate limiting off, latency scale 0.001; autocannon in the parent, same machine).',
    '',
    table,
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (!process.argv.includes('--write-docs')) return;
  const file = join(projectRoot(), 'docs', 'simulator.md');
  const doc = readFileSync(file, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file}: markers ${start} … ${end} not found`);
  writeFileSync(file, `${doc.slice(0, from + start.length)}\n${section}\n${doc.slice(to)}`);
  process.stdout.write(`updated ${file}\n`);
}

if (process.argv.includes('--serve')) void serve();
else {
  main().catch((err: unknown) => {
    process.stderr.write(`sim-throughput: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
