/**
 * Per-request nondeterminism of a simulated model: with probability `rate`, an ask is answered another way than the
 * last time (another retrieved document, or one sentence more or fewer), so two runs of the same dataset differ as
 * they do against a real assistant.
 *
 * Each draw is seeded by (seed, site, model, message, how many times this simulator has answered that message
 * before), never by arrival order across questions: one seed makes a whole run reproducible however its questions
 * interleave, and a second run in the same simulator gets fresh draws (the counts go on).
 */
import { Prng } from '../prng';

/** How one answer departs from the model's usual one. */
export type AnswerVariation =
  /** Answer from the next-ranked document, as if retrieval had ranked it first. */
  | { kind: 'other-document' }
  /** One sentence more (+1) or fewer (-1) than the model's limit: another phrasing of the same passage. */
  | { kind: 'length'; delta: 1 | -1 };

export class AnswerNoise {
  private readonly asked = new Map<string, number>();

  constructor(private readonly seed: number, private readonly rateOf: (model: string) => number) {}

  /** The variation of this ask, or undefined for the model's usual answer. Counts the ask either way. */
  draw(siteId: string, model: string, message: string): AnswerVariation | undefined {
    const rate = this.rateOf(model);
    if (rate <= 0) return undefined;
    const key = JSON.stringify([siteId, model, message]);
    const n = this.asked.get(key) ?? 0;
    this.asked.set(key, n + 1);
    const rng = new Prng(this.seed, `noise:${key}:${n}`);
    if (rng.next() >= rate) return undefined;
    const pick = rng.next();
    if (pick < 0.5) return { kind: 'other-document' };
    return { kind: 'length', delta: pick < 0.75 ? -1 : 1 };
  }

  /** Forgets the counts (`POST /__sim/reset`): the next run draws as the first one did. */
  clear(): void {
    this.asked.clear();
  }
}
