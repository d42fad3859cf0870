import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from '../../src/notify/webhook';

/** One request the receiver saw: raw body, headers, and whether the signature held. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  deliveryId?: string;
  signature?: string;
  timestamp?: string;
  /** The signature verified with the receiver's secret (webhook paths only; undefined without a secret). */
  verified?: boolean;
  /** With `Reply.streamBytes`: the bytes of the answer's body the sender took before it closed the connection. */
  streamed?: number;
}

/** How to answer a request: status, headers, and an optional delay before answering. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  /** Instead of `body`: this many bytes, written as fast as the sender reads them (a receiver answering gigabytes). */
  streamBytes?: number;
}

/** Express's default 404 page, which quotes the request's path: the webhook URL's secret part, for a Slack URL. */
export function expressNotFound(r: Received): Reply {
  return { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST ${r.path}</pre>\n</body>\n</html>\n` };
}

/**
 * A local webhook receiver, as a team's endpoint would be: it verifies the HMAC signature with its secret, de-
 * duplicates on the delivery id, and answers as `reply` says (by default 200 at once). Every request is recorded
 * when its body has arrived, before the answer, so a sender that dies while waiting still counts as having sent.
 */
export class Receiver {
  readonly received: Received[] = [];
  reply: (r: Received, index: number) => Reply = () => ({ status: 200 });
  private server?: Server;
  private listeners: ((r: Received) => void)[] = [];
  private readonly answers = new Map<number, Promise<void>>();

  constructor(private readonly secret?: string) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Distinct delivery ids of webhook requests: what a de-duplicating receiver acts on. */
  deliveries(): Set<string> {
    return new Set(this.received.map((r) => r.deliveryId).filter((id): id is string => id !== undefined));
  }

  /** Resolves with the next request (or one already received after `index`). */
  next(index = this.received.length): Promise<Received> {
    const seen = this.received[index];
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.listeners.push(resolve));
  }

  /** Resolves once the receiver has finished answering request `index` (or its sender hung up). */
  async answered(index: number): Promise<void> {
    await this.next(index);
    await this.answers.get(index);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const signature = req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined;
    const timestamp = req.headers[TIMESTAMP_HEADER.toLowerCase()] as string | undefined;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const r: Received = {
      path: req.url ?? '/', headers: req.headers, body, json, signature, timestamp,
      deliveryId: req.headers[DELIVERY_HEADER.toLowerCase()] as string | undefined,
      verified: this.secret === undefined || signature === undefined ? undefined : verifySignature(body, this.secret, signature, timestamp),
    };
    const index = this.received.push(r) - 1;
    let answered = (): void => undefined;
    this.answers.set(index, new Promise<void>((resolve) => (answered = resolve)));
    for (const l of this.listeners.splice(0)) l(r);
    try {
      await this.answer(r, index, res);
    } finally {
      answered();
    }
  }

  private async answer(r: Received, index: number, res: ServerResponse): Promise<void> {
    const reply = this.reply(r, index);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(reply.status, reply.headers ?? {});
    if (reply.streamBytes !== undefined) r.streamed = await stream(res, reply.streamBytes);
    else res.end(reply.body ?? 'ok');
  }
}

const STREAM_CHUNK = Buffer.alloc(64 * 1024, 'x');

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes up to `bytes`, waiting for the sender to read (drain) after each chunk; stops when it closes the connection. */
async function stream(res: ServerResponse, bytes: number): Promise<number> {
  let written = 0;
  let closed = false;
  res.once('close', () => (closed = true));
  while (written < bytes && !closed) {
    const chunk = STREAM_CHUNK.subarray(0, Math.min(STREAM_CHUNK.length, bytes - written));
    const more = res.write(chunk);
    written += chunk.length;
    if (!more) await drainedOrClosed(res);
  }
  if (!closed) res.end();
  // What the socket had not handed to the kernel when it closed was never sent.
  return written - (res.socket?.writableLength ?? 0);
}
