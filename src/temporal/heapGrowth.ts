import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 grows each heap of this process past what survived its last full collection: 1 + percent/100
 * instead of V8's own factor of up to 4. A busy worker keeps 40–50 MiB alive per heap (activities, workflows) but
 * allocates fast, and V8 then grew each heap to 150–260 MiB of mostly garbage; it also keeps freed pages around. The
 * flag is read at every collection, so it applies to the heap already running and to the workflow thread started
 * after it. Measured cost: none (the scale run's wall time and worker CPU did not change; BENCHMARKS.md).
 *
 * Process-wide: called by whatever runs workers in this process (`sitechat worker`, the CLI's embedded worker).
 */
export function limitHeapGrowth(percent: number | undefined): void {
  if (!percent) return;
  setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
