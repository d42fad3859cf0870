import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Captured {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (req: Captured) => { status: number; body: unknown; headers?: Record<string, string> };

/** A local HTTP server standing in for an OpenAI-compatible provider; records every request. */
export async function fakeProvider(respond: Responder): Promise<{ baseUrl: string; requests: Captured[]; close(): Promise<void> }> {
  const requests: Captured[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const captured = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(captured);
      const r = respond(captured);
      const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** A reply shaped exactly like the Chat Completions API's. */
export function completion(content: string, usage = { prompt_tokens: 212, completion_tokens: 19, total_tokens: 231 }): unknown {
  return {
    id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    object: 'chat.completion',
    created: 1741569952,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{
      index: 0,
      message: { role: 'assistant', content, refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: 'stop',
    }],
    usage: {
      ...usage,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_06737a9306',
  };
}
