import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the hostile judge answers. Each is something a broken provider, proxy or misconfigured base URL really does.
 */
export const HostileMode = {
  /** A well-formed completion with a `pass` verdict: the control. */
  ok: 'ok',
  /** `200`, `Content-Type: application/json`, `Content-Length: 0`: no body at all. */
  empty: 'empty',
  /** `200` and its headers at once, then a valid completion one byte every `trickleEveryMs`. */
  trickle: 'trickle',
  /** `429` with `Retry-After: retryAfterSeconds` (an hour by default). */
  rateLimited: 'rate-limited',
  /** `200`, `Content-Type: application/json`, and a body that is not JSON (an HTML page unless `body` is given). */
  notJson: 'not-json',
  /** `200` and valid JSON that is not a chat completion (no `message` in the choice unless `body` is given). */
  wrongShape: 'wrong-shape',
  /** `200`, its headers and half a completion, then the connection is destroyed. */
  reset: 'reset',
} as const;
export type HostileMode = (typeof HostileMode)[keyof typeof HostileMode];

export interface HostileOptions {
  /** Gap between two bytes of a trickled body. @default 2000 */
  trickleEveryMs?: number;
  /** The 429's `Retry-After`, in seconds. @default 3600 */
  retryAfterSeconds?: number;
  /** The body of `not-json` and `wrong-shape` (and of `ok`, to send another verdict). */
  body?: string;
  /** The `Content-Type` of `not-json` and `wrong-shape`. @default application/json */
  contentType?: string;
}

export interface HostileJudge {
  /** The judge's base URL (`…/v1`), for `SITECHAT_JUDGE_BASE_URL`. */
  baseUrl: string;
  /** Requests to `…/chat/completions` since the start or the last `setMode`. */
  readonly calls: number;
  /** Answers every following call this way, and sets `calls` back to 0. */
  setMode(mode: HostileMode, options?: HostileOptions): void;
  close(): Promise<void>;
}

/** A reply shaped like the Chat Completions API's, carrying `content`. */
export function chatCompletion(content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-hostile', object: 'chat.completion', created: 1741569952, model: 'hostile-judge',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 12, total_tokens: 112 },
  });
}

const PASS = chatCompletion('{"verdict":"pass","reason":"The hostile judge passes everything it answers."}');

/**
 * A hostile OpenAI-compatible judge. **A test double, not a model**: a real local HTTP server on 127.0.0.1 that answers
 * `POST …/chat/completions` in one of the {@link HostileMode} ways, so tests can show that the judge path ends each of
 * them within its configured bounds (attempts, time-out, Retry-After cap) instead of stalling a run. It counts calls;
 * other routes get 404.
 */
export async function startHostileJudge(mode: HostileMode = HostileMode.ok, options: HostileOptions = {}): Promise<HostileJudge> {
  let current = { mode, options };
  let calls = 0;
  const timers = new Set<NodeJS.Timeout>();

  const answer = (res: ServerResponse): void => {
    const { mode: m, options: o } = current;
    const contentType = o.contentType ?? 'application/json';
    switch (m) {
      case HostileMode.ok:
        res.writeHead(200, { 'content-type': 'application/json' }).end(o.body ?? PASS);
        return;
      case HostileMode.empty:
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' }).end();
        return;
      case HostileMode.rateLimited:
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(o.retryAfterSeconds ?? 3600) })
          .end(JSON.stringify({ error: { message: 'Rate limit reached, try again in an hour', type: 'requests', code: 'rate_limit_exceeded' } }));
        return;
      case HostileMode.notJson:
        res.writeHead(200, { 'content-type': contentType }).end(o.body ?? '<!doctype html><html><body>Welcome to nginx!</body></html>');
        return;
      case HostileMode.wrongShape:
        res.writeHead(200, { 'content-type': contentType }).end(o.body ?? JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop' }] }));
        return;
      case HostileMode.reset:
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(PASS.length) });
        res.write(PASS.slice(0, PASS.length / 2), () => res.destroy());
        return;
      case HostileMode.trickle: {
        // The length is announced, so the client waits for every byte: only a time-out over the whole call ends it.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(PASS.length) });
        res.flushHeaders();
        let sent = 0;
        const timer = setInterval(() => {
          res.write(PASS.charAt(sent++));
          if (sent >= PASS.length) stop();
        }, o.trickleEveryMs ?? 2000);
        const stop = (): void => {
          clearInterval(timer);
          timers.delete(timer);
          if (!res.writableEnded) res.end();
        };
        timers.add(timer);
        res.on('close', stop);
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      calls++;
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return calls;
    },
    setMode(next, nextOptions = {}) {
      current = { mode: next, options: nextOptions };
      calls = 0;
    },
    close: () => new Promise<void>((resolve) => {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
