/**
 * Seeded pseudo-random numbers (sfc32), so that latencies, faults and weak-model noise are
 * reproducible for a given `--seed`. Each purpose draws from its own stream, so that e.g. enabling
 * a fault does not change the latencies. (Request and session ids are random, see `Simulator.newId`.)
 */

/** 32-bit FNV-1a hash of a string, mixed with a seed. */
export function hash32(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream identified by `seed` and a purpose name such as `'ids'`. */
  constructor(seed: number, stream: string) {
    const init = splitmix32(hash32(stream, seed >>> 0) ^ Math.imul(seed >>> 0, 0x9e3779b1));
    this.a = init();
    this.b = init();
    this.c = init();
    this.d = init();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical 8-4-4-4-12 hex UUID (any version). */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/**
 * Completion time of a chat request: 5 s plus a lognormal tail (median 2.5 s), clipped to 30 s,
 * so about 78 % finish within 10 s, as spec §4.5 describes; then multiplied by `scale`.
 */
export function sampleCompletionMs(rng: Prng, scale: number): number {
  const tail = Math.min(25_000, 2_500 * Math.exp(0.9 * rng.normal()));
  return Math.round((5_000 + tail) * scale);
}
