import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_HEADER, SIGNATURE_HEADER, verifySignature } from '../../src/notify/webhook';

/** One request the receiver saw: raw body, headers, and whether the signature held. */
export interface Received {
  path: string;
  body: string;
  json: unknown;
  deliveryId?: string;
  signature?: string;
  /** The signature verified with the receiver's secret (webhook paths only; undefined without a secret). */
  verified?: boolean;
}

/** How to answer a request: status, headers, and an optional delay before answering. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
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

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const signature = req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const r: Received = {
      path: req.url ?? '/', body, json, signature,
      deliveryId: req.headers[DELIVERY_HEADER.toLowerCase()] as string | undefined,
      verified: this.secret === undefined || signature === undefined ? undefined : verifySignature(body, this.secret, signature),
    };
    const index = this.received.push(r) - 1;
    for (const l of this.listeners.splice(0)) l(r);
    const reply = this.reply(r, index);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(reply.body ?? 'ok');
  }
}
