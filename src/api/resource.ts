import type { Transport } from './transport';

/**
 * What every API resource module (chat, feedback, requests, sessions, tenants) is built on: the client's one
 * transport, through which each method makes its call. The API key lives inside the transport, in a hard-private
 * field, so a resource can be inspected or logged without showing it.
 */
export abstract class APIResource {
  protected readonly http: Transport;

  constructor(http: Transport) {
    this.http = http;
  }
}
