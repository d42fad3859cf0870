/**
 * The peer: the simplest script a user might write instead of the runner. Bounded concurrency, submit + poll with
 * fetch, retry on 429 (honouring Retry-After), must_include grading, feedback good/bad, close the session. No
 * client-side pacing, no durability: a crash loses everything in flight.
 *
 *   node dist/bench/naive-runner.js --base-url http://127.0.0.1:8787/api/v1 --api-key sk-… --site demo-site \
 *     --dataset rows.csv [--concurrency 50] [--poll-ms 1000]
 *
 * Prints a JSON summary on stdout (or sends it to the parent process when forked by the bench).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

export interface NaiveOptions {
  baseUrl: string;
  apiKey: string;
  siteId: string;
  rows: { question: string; must_include?: string }[];
  concurrency: number;
  pollMs: number;
  email?: string;
}

export interface NaiveResult {
  rows: number;
  answered: number;
  failed: number;
  passed: number;
  errors: number;
  /** 429 responses this script received, by path */
  rateLimited: { submit: number; status: number; feedback: number; close: number };
  wallMs: number;
  latencyMs: number[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runNaive(o: NaiveOptions): Promise<NaiveResult> {
  const site = `${o.baseUrl}/m2m/sites/${encodeURIComponent(o.siteId)}`;
  const headers = { 'x-api-key': o.apiKey, 'content-type': 'application/json' };
  const res: NaiveResult = { rows: o.rows.length, answered: 0, failed: 0, passed: 0, errors: 0, rateLimited: { submit: 0, status: 0, feedback: 0, close: 0 }, wallMs: 0, latencyMs: [] };

  // Retries 429 after Retry-After (1 s if absent) for as long as it takes, and 5xx after 1 s up to 5 times.
  async function call(kind: keyof NaiveResult['rateLimited'], url: string, body?: unknown): Promise<Record<string, unknown>> {
    for (let errors = 0; ; ) {
      const r = await fetch(url, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
      if (r.ok) return (await r.json()) as Record<string, unknown>;
      if (r.status === 429) res.rateLimited[kind]++;
      else if (r.status >= 500) errors++;
      if (r.status === 429 || (r.status >= 500 && errors < 5)) {
        await r.arrayBuffer();
        await sleep(Number(r.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      throw new Error(`${r.status} ${await r.text()}`);
    }
  }

  async function one(row: NaiveOptions['rows'][number]): Promise<void> {
    const sent = await call('submit', `${site}/chat/async`, { message: row.question, email: o.email ?? 'bench@example.com' });
    const started = Date.now();
    let status: Record<string, unknown>;
    do {
      await sleep(o.pollMs);
      status = await call('status', `${site}/chat/requests/${String(sent.request_id)}`);
    } while (status.status === 'pending');
    res.latencyMs.push(Date.now() - started);
    if (status.status === 'completed') {
      res.answered++;
      const answer = String(status.answer ?? '').toLowerCase();
      const pass = (row.must_include ?? '').split('|').filter(Boolean).every((p) => answer.includes(p.toLowerCase()));
      if (pass) res.passed++;
      await call('feedback', `${site}/chat/feedback`, { session_id: sent.session_id, request_id: sent.request_id, feedback: pass ? 'good' : 'bad' });
    } else {
      res.failed++;
    }
    await call('close', `${site}/chat/session/close`, { session_id: sent.session_id });
  }

  const t0 = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(o.concurrency, o.rows.length) }, async () => {
    while (next < o.rows.length) {
      const row = o.rows[next++] as NaiveOptions['rows'][number];
      try {
        await one(row);
      } catch {
        res.errors++;
      }
    }
  }));
  res.wallMs = Date.now() - t0;
  return res;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const need = (name: string): string => flag(name) ?? (() => { throw new Error(`--${name} is required`); })();
  const rows = parse(readFileSync(need('dataset'), 'utf8'), { columns: true, skip_empty_lines: true }) as NaiveOptions['rows'];
  const result = await runNaive({
    baseUrl: need('base-url'), apiKey: need('api-key'), siteId: flag('site') ?? 'demo-site', rows,
    concurrency: Number(flag('concurrency') ?? 50), pollMs: Number(flag('poll-ms') ?? 1000),
  });
  if (process.send) process.send(result, () => process.disconnect());
  else process.stdout.write(JSON.stringify({ ...result, latencyMs: undefined }) + '\n');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
