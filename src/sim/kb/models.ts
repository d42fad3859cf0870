/**
 * The models the simulator answers with. They share the retrieval; they differ in how much of
 * the retrieved text they use, whether they read the conversation, and how noisy they are.
 */
export interface ModelProfile {
  name: string;
  /** At most this many sentences in a passage answer. */
  maxSentences: number;
  /** Only the first N characters of the chosen passage (or Q&A answer) are seen; null = all. */
  contextChars: number | null;
  /** Whether follow-up turns add the previous question's terms to the query. */
  useConversation: boolean;
  /** Probability (per question, seeded) of answering from the second-ranked document. */
  wrongDocumentRate: number;
  /** Multiplies the confidence score. */
  confidenceFactor: number;
  /** Seeded jitter of the confidence score, +/- points. */
  confidenceJitter: number;
}

export const DEFAULT_MODEL = 'gpt-4o-mini';
/** A deliberately weaker model, to demonstrate a regression between two runs. */
export const WEAK_MODEL = 'gpt-3.5-mini-sim';

export const MODELS: Readonly<Record<string, ModelProfile>> = {
  'gpt-4o-mini': {
    name: 'gpt-4o-mini',
    maxSentences: 2,
    contextChars: null,
    useConversation: true,
    wrongDocumentRate: 0,
    confidenceFactor: 1,
    confidenceJitter: 0,
  },
  'gpt-4o': {
    name: 'gpt-4o',
    maxSentences: 3,
    contextChars: null,
    useConversation: true,
    wrongDocumentRate: 0,
    confidenceFactor: 1,
    confidenceJitter: 0,
  },
  [WEAK_MODEL]: {
    name: WEAK_MODEL,
    maxSentences: 1,
    contextChars: 160,
    useConversation: false,
    wrongDocumentRate: 0.25,
    confidenceFactor: 0.8,
    confidenceJitter: 8,
  },
};

export const MODEL_NAMES: readonly string[] = Object.keys(MODELS);

export function findModel(name: string): ModelProfile | undefined {
  return Object.prototype.hasOwnProperty.call(MODELS, name) ? MODELS[name] : undefined;
}
