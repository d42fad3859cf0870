/**
 * The body of the codec server protocol: a `Payloads` message in proto3 JSON, `{ "payloads": [{ "metadata":
 * { "encoding": "<base64>" }, "data": "<base64>" }] }` (bytes fields are base64, metadata values included).
 */
import type { Payload } from '@temporalio/common';

export class PayloadJsonError extends Error {
  override name = 'PayloadJsonError';
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/u;

function bytesOf(value: unknown, where: string): Uint8Array {
  if (typeof value !== 'string' || !BASE64.test(value)) throw new PayloadJsonError(`${where} must be a base64 string`);
  return Buffer.from(value, 'base64');
}

function payloadOf(value: unknown, i: number): Payload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PayloadJsonError(`payloads[${i}] must be an object`);
  const { metadata, data } = value as { metadata?: unknown; data?: unknown };
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) throw new PayloadJsonError(`payloads[${i}].metadata must be an object`);
  const entries = Object.entries((metadata ?? {}) as Record<string, unknown>).map(([k, v]) => [k, bytesOf(v, `payloads[${i}].metadata.${k}`)] as const);
  return { metadata: Object.fromEntries(entries), ...(data === undefined || data === null ? {} : { data: bytesOf(data, `payloads[${i}].data`) }) };
}

/** Payloads from a request body; a `PayloadJsonError` names what is wrong. */
export function payloadsFromJson(body: string): Payload[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new PayloadJsonError('the body is not JSON');
  }
  const payloads = (parsed as { payloads?: unknown } | null)?.payloads;
  if (!Array.isArray(payloads)) throw new PayloadJsonError('the body must be {"payloads": [...]}');
  return payloads.map(payloadOf);
}

export function payloadsToJson(payloads: readonly Payload[]): string {
  const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
  return JSON.stringify({
    payloads: payloads.map((p) => ({
      metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
      ...(p.data ? { data: b64(p.data) } : {}),
    })),
  });
}
