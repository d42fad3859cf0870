import type { EndpointName } from '../constants';
import type { Prng } from '../prng';
import { parseFaultConfig, type EndpointFaults, type FaultConfig, type FaultKey } from './config';

type Probability = 'failRate' | 'rejectRate' | 'asyncFailRate' | 'transientFailRate' | 'dropRate' | 'badGatewayAfterAcceptRate';
type Amount = Probability | 'extraLatencyMs' | 'processingDelayMs' | 'newRequestNotFoundMs';

/**
 * Decides, per request, whether a fault is injected. Probabilities draw from a dedicated seeded
 * stream; a probability of 0 draws nothing, so faults that are off never perturb the sequence.
 */
export class FaultInjector {
  private config: FaultConfig = {};
  /** Remaining forced 429s per config key. */
  private readonly bursts = new Map<FaultKey, number>();
  /** Questions (`transientFailRate`) that had their one failure. */
  private readonly failedOnce = new Set<string>();

  constructor(private rng: Prng) {}

  /** Restarts the random stream (on reset), keeping the configuration; questions may fail once again. */
  reseed(rng: Prng): void {
    this.rng = rng;
    this.failedOnce.clear();
  }

  /** Replaces the whole configuration (validated; throws on bad input). */
  set(input: unknown): FaultConfig {
    const config = parseFaultConfig(input);
    this.config = config;
    this.bursts.clear();
    for (const [key, faults] of Object.entries(config) as [FaultKey, EndpointFaults][]) {
      if (faults.rateLimitBurst) this.bursts.set(key, faults.rateLimitBurst);
    }
    return this.get();
  }

  /** The configuration, with `rateLimitBurst` showing what is left of each burst. */
  get(): FaultConfig {
    const out: FaultConfig = {};
    for (const [key, faults] of Object.entries(this.config) as [FaultKey, EndpointFaults][]) {
      out[key] = { ...faults, ...(faults.rateLimitBurst !== undefined ? { rateLimitBurst: this.bursts.get(key) ?? 0 } : {}) };
    }
    return out;
  }

  private value(endpoint: EndpointName, field: Amount): number {
    return this.config[endpoint]?.[field] ?? this.config['*']?.[field] ?? 0;
  }

  /** True when this request must get a forced 429 (consumes one from the endpoint's burst, else from `'*'`). */
  takeBurst(endpoint: EndpointName): boolean {
    for (const key of [endpoint, '*'] as const) {
      const left = this.bursts.get(key);
      if (left !== undefined && left > 0) {
        this.bursts.set(key, left - 1);
        return true;
      }
    }
    return false;
  }

  roll(endpoint: EndpointName, field: Probability): boolean {
    const p = this.value(endpoint, field);
    return p > 0 && this.rng.next() < p;
  }

  /**
   * `roll`, at most once true per `key` (a question on its site): a key that had its failure draws nothing, so the
   * same question asked again is never failed this way again.
   */
  rollOnce(endpoint: EndpointName, field: Probability, key: string): boolean {
    if (this.failedOnce.has(key) || !this.roll(endpoint, field)) return false;
    this.failedOnce.add(key);
    return true;
  }

  /** The `error` of a request `asyncFailRate` fails, when configured. */
  asyncFailError(endpoint: EndpointName): string | undefined {
    return this.config[endpoint]?.asyncFailError ?? this.config['*']?.asyncFailError;
  }

  extraLatencyMs(endpoint: EndpointName): number {
    return this.value(endpoint, 'extraLatencyMs');
  }

  processingDelayMs(endpoint: EndpointName): number {
    return this.value(endpoint, 'processingDelayMs');
  }

  newRequestNotFoundMs(endpoint: EndpointName): number {
    return this.value(endpoint, 'newRequestNotFoundMs');
  }
}
