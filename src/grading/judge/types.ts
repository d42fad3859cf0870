/**
 * The LLM judge's interface: `judge(request) → { verdict, reason, tokens }`. Plain JSON types, no Node APIs, so
 * requests can travel in activity payloads and workflow code can build them.
 */

/** What the judge is asked to decide. */
export const JudgeKind = {
  /** Does the answer meet the rubric's criteria? */
  rubric: 'rubric',
  /** Is the answer consistent with (one of) the reference answer(s)? */
  correctness: 'correctness',
} as const;
export type JudgeKind = (typeof JudgeKind)[keyof typeof JudgeKind];

/** One question for the judge. Everything that decides the verdict is in here (and in the cache key). */
export type JudgeRequest =
  | { kind: typeof JudgeKind.rubric; question: string; answer: string; rubric: string }
  | { kind: typeof JudgeKind.correctness; question: string; answer: string; references: string[] };

/** The judge's decision on one request. */
export interface JudgeVerdict {
  verdict: 'pass' | 'fail';
  /** One or two sentences, from the model. */
  reason: string;
  /** Tokens the call used (prompt + completion), as the provider reported them; 0 when it reports none. */
  tokens: number;
}

/** A judge: one implementation calls an OpenAI-compatible endpoint; tests may supply their own. */
export interface Judge {
  /** The model asked; part of the cache key and of every recorded verdict. */
  readonly model: string;
  /** One model call. Throws a `JudgeError` (retryable or not), never guesses a verdict. */
  judge(request: JudgeRequest, options?: { signal?: AbortSignal }): Promise<JudgeVerdict>;
}

/** A verdict as a run records it: from a call, or from the cache. */
export interface JudgeOutcome extends JudgeVerdict {
  model: string;
  cached: boolean;
}
