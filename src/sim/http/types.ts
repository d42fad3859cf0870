import type { EndpointName } from '../constants';
import type { Simulator } from '../simulator';
import type { TenantRecord } from '../state/registry';

/** A handler's answer; the server serializes it (or drops it when a drop fault fires). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Runs when a drop fault destroys the connection instead of writing the reply. */
  onLost?: () => void;
}

/** Marks a POST body that is not valid JSON. */
export const INVALID_JSON: unique symbol = Symbol('invalid JSON');

export interface RequestContext {
  endpoint: EndpointName;
  /** Path parameters, percent-decoded ('' when the encoding is broken). */
  params: Readonly<Record<string, string>>;
  /** Raw query string without `?`. */
  search: string;
  /** Parsed JSON body of a POST, or INVALID_JSON; undefined for GET. */
  body: unknown;
  /** The tenant of the API key (authentication already passed). */
  tenant: TenantRecord;
}

export type Handler = (sim: Simulator, ctx: RequestContext) => Reply | Promise<Reply>;

export function reply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

export function errorReply(status: number, error: string, extra?: Record<string, unknown>, headers?: Record<string, string>): Reply {
  const body = extra ? { error, ...extra } : { error };
  return headers ? { status, body, headers } : { status, body };
}

/** The body as a plain object, or undefined for invalid JSON, arrays and primitives. */
export function bodyObject(body: unknown): Record<string, unknown> | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}
