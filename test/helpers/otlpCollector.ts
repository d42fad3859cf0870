import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the collector behaves: answering, gone (its port closed), or accepting requests and never answering. */
export type CollectorMode = 'up' | 'down' | 'hang';

export interface CollectorPost {
  /** When its body had arrived (epoch ms). */
  at: number;
  mode: CollectorMode;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface OtlpAttr { key: string; value: { stringValue?: string; intValue?: number | string } }
export interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; startTimeUnixNano: string; attributes: OtlpAttr[] }
export interface OtlpRequest { resourceSpans: { resource: { attributes: OtlpAttr[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] }

/** The spans of an OTLP/HTTP JSON request body. */
export function spansIn(post: CollectorPost): OtlpSpan[] {
  return (JSON.parse(post.body) as OtlpRequest).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
}

/**
 * An OTLP/HTTP collector whose outages a test controls, on one port for its whole life: `up` records each POST and
 * answers 200 `{}`; `down` closes the port (connections are refused, open ones reset); `hang` accepts each request,
 * reads it and never answers (as a collector stuck on its own backend would).
 */
export class OtlpCollector {
  readonly posts: CollectorPost[] = [];
  #mode: CollectorMode = 'up';
  #server: Server | undefined;
  #port = 0;
  readonly #sockets = new Set<Socket>();

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get mode(): CollectorMode {
    return this.#mode;
  }

  async start(): Promise<void> {
    await this.#listen();
  }

  async setMode(mode: CollectorMode): Promise<void> {
    if (mode === this.#mode) return;
    const was = this.#mode;
    this.#mode = mode;
    if (mode === 'down') await this.#close();
    else if (was === 'down') await this.#listen();
  }

  async close(): Promise<void> {
    await this.#close();
  }

  async #listen(): Promise<void> {
    const server = createServer((req, res) => this.#handle(req, res));
    server.on('connection', (s) => {
      this.#sockets.add(s);
      s.once('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async #close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const mode = this.#mode;
      this.posts.push({ at: Date.now(), mode, path: req.url ?? '', headers: req.headers, body });
      // A hung request stays open until the client gives up on it (or the collector goes down).
      if (mode === 'hang') return;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  }
}
