/**
 * What payload encryption (SITECHAT_PAYLOAD_KEYS) costs per row: every payload of a finished run's histories, in the
 * groups the SDK hands the codec (an activity's input, a result, a signal's arguments …), encrypted and decrypted
 * again with a fresh key, timed in this process. Each recorded payload is encoded once by the process that wrote it
 * and decoded at least once by each reader (the workflow's worker; again after a cache eviction, a query, `watch`).
 * Query results and heartbeats that never reach a history pass the codec too and are not counted here.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { EncryptionCodec } from '../src/codec/encryption';
import { parsePayloadKeys, type PayloadKeys } from '../src/codec/keys';
import { payloadGroupsIn } from '../scripts/histories/collect';

export interface CodecCost {
  rows: number;
  /** Payloads in the run's histories that pass the codec (the SDK core's patch markers do not), and their groups. */
  payloads: number;
  groups: number;
  /** Their size as the server stores them: clear, then encrypted. */
  clearBytes: number;
  sealedBytes: number;
  /** Encrypting, then decrypting, every group once: the median of `passes` passes (ms for all rows). */
  encodeMs: number;
  decodeMs: number;
  passes: number;
}

const PASSES = 7;

const size = (p: Payload): number => temporal.api.common.v1.Payload.encode(p).finish().length;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export async function measureCodecCost(client: Client, workflowIds: readonly string[], rows: number): Promise<CodecCost> {
  const groups: Payload[][] = [];
  for (const id of workflowIds) groups.push(...payloadGroupsIn(await client.workflow.getHandle(id).fetchHistory()));
  const codec = new EncryptionCodec(parsePayloadKeys(`bench:${randomBytes(32).toString('base64')}`) as PayloadKeys);
  const encodeMs: number[] = [];
  const decodeMs: number[] = [];
  let sealed: Payload[][] = [];
  // One pass more than counted: the first warms the cipher and the proto encoder up.
  for (let pass = 0; pass <= PASSES; pass++) {
    const t0 = performance.now();
    sealed = [];
    for (const g of groups) sealed.push(await codec.encode(g));
    const t1 = performance.now();
    for (const g of sealed) await codec.decode(g);
    const t2 = performance.now();
    if (pass > 0) {
      encodeMs.push(t1 - t0);
      decodeMs.push(t2 - t1);
    }
  }
  const all = (gs: Payload[][]): Payload[] => gs.flat();
  return {
    rows, payloads: all(groups).length, groups: groups.length,
    clearBytes: all(groups).reduce((n, p) => n + size(p), 0), sealedBytes: all(sealed).reduce((n, p) => n + size(p), 0),
    encodeMs: median(encodeMs), decodeMs: median(decodeMs), passes: PASSES,
  };
}
