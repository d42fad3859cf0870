import { setFlagsFromString } from 'node:v8';

/**
 * The young generation's largest semi-space, in MiB, for heaps started after the worker is configured (its workflow
 * thread): Node 20's default. Node 22 and 24 size it from the machine's memory (64 MiB on 24 GiB), and a busy worker
 * filled it: 128 MiB of new space per heap, most of it garbage between scavenges.
 */
export const SEMI_SPACE_MIB = 16;

/** Whether the deployer chose a semi-space size on the command line or in NODE_OPTIONS: theirs applies to every heap. */
export function semiSpaceGiven(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/u)].some((arg) => /^--max[-_]semi[-_]space[-_]size\b/u.test(arg));
}

/**
 * Caps how far V8 grows each heap of this process past what survived its last full collection: 1 + percent/100
 * instead of V8's own factor of up to 4. A busy worker keeps 40–50 MiB alive per heap (activities, workflows) but
 * allocates fast, and V8 then grew each heap to 150–260 MiB of mostly garbage; it also keeps freed pages around. The
 * flag is read at every collection, so it applies to the heap already running and to the workflow thread started
 * after it. Measured cost: none (the scale run's wall time and worker CPU did not change; BENCHMARKS.md).
 *
 * The semi-space size is read only when a heap starts: it applies to the workflow thread; the main thread's comes
 * from the command line (`sitechat worker` restarts itself with it where Node can, see `memoryRelaunch`; else
 * `NODE_OPTIONS=--max-semi-space-size=16`, which the Docker image sets).
 *
 * Process-wide: called by whatever runs workers in this process (`sitechat worker`, the CLI's embedded worker).
 */
export function limitHeapGrowth(percent: number | undefined): void {
  if (!percent) return;
  setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
  if (!semiSpaceGiven(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MIB}`);
}
