import { z } from 'zod';
import { ENDPOINT_NAMES, type EndpointName } from '../constants';

/** Faults of one endpoint (or of all, under the key `'*'`). All off by default. */
export interface EndpointFaults {
  /** Probability (0..1) of answering 500 `failed to call rag service` instead of processing. @default 0 */
  failRate?: number;
  /**
   * Probability (0..1) of refusing the request with 400 and the endpoint's validation error (feedback: `feedback must
   * be 'good' or 'bad'`, close: `session_id is required`, others: `invalid payload`): an answer no retry changes.
   * @default 0
   */
  rejectRate?: number;
  /** Probability (0..1) that an accepted chat request ends `failed` (sync chat: 500). @default 0 */
  asyncFailRate?: number;
  /** The `error` of the requests `asyncFailRate` fails, e.g. `site not found` (spec §7 rule 2). @default 'failed to call rag service' */
  asyncFailError?: string;
  /**
   * Probability (0..1) that an accepted chat request ends `failed` with `failed to call rag service` (sync chat: 500)
   * the first time its question is asked on its site: a hiccup of the service. The same question asked again, in any
   * session, is not failed this way again, so a client that re-asks it gets its answer. @default 0
   */
  transientFailRate?: number;
  /** Probability (0..1) that a successful response is lost after processing (socket destroyed). @default 0 */
  dropRate?: number;
  /**
   * Probability (0..1) that a successful response is replaced, after processing, by a proxy's HTML `502 Bad Gateway`
   * page: the request was accepted (a chat question stored and answered), the client cannot tell. @default 0
   */
  badGatewayAfterAcceptRate?: number;
  /** Delay before the request is handled, in ms (not scaled by latencyScale). @default 0 */
  extraLatencyMs?: number;
  /** Added to the completion time of chat requests, in ms (not scaled). @default 0 */
  processingDelayMs?: number;
  /** The next N requests get 429; counts down as they are answered. @default 0 */
  rateLimitBurst?: number;
  /**
   * Status lookups (`requests.status`) of a request accepted less than this long ago (simulated time, in ms) answer 404
   * `request not found`, as an eventually consistent deployment may before its read side knows a new id. @default 0
   */
  newRequestNotFoundMs?: number;
}

/** Per-endpoint faults; the `'*'` entry applies to every endpoint, an endpoint's own entry wins field by field. */
export type FaultConfig = Partial<Record<'*' | EndpointName, EndpointFaults>>;
export type FaultKey = '*' | EndpointName;

const probability = z.number().min(0).max(1);
const nonNegative = z.number().min(0).finite();

export const endpointFaultsSchema = z.strictObject({
  failRate: probability.optional(),
  rejectRate: probability.optional(),
  asyncFailRate: probability.optional(),
  asyncFailError: z.string().min(1).optional(),
  transientFailRate: probability.optional(),
  dropRate: probability.optional(),
  badGatewayAfterAcceptRate: probability.optional(),
  extraLatencyMs: nonNegative.optional(),
  processingDelayMs: nonNegative.optional(),
  rateLimitBurst: z.number().int().min(0).optional(),
  newRequestNotFoundMs: nonNegative.optional(),
});

const shape: Record<string, z.ZodOptional<typeof endpointFaultsSchema>> = { '*': endpointFaultsSchema.optional() };
for (const name of ENDPOINT_NAMES) shape[name] = endpointFaultsSchema.optional();

export const faultConfigSchema = z.strictObject(shape);

/** Validates a fault configuration; throws an Error whose message names the offending field. */
export function parseFaultConfig(input: unknown): FaultConfig {
  const result = faultConfigSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    throw new Error(`faults: \`${where}\` ${issue?.message ?? 'is invalid'}`);
  }
  return result.data as FaultConfig;
}
