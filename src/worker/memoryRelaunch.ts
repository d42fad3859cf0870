import { SEMI_SPACE_MIB, semiSpaceGiven } from './heapGrowth';

/**
 * glibc's malloc arenas for a worker: two instead of up to 8 per core. The SDK core's threads, V8's helper threads and
 * the workflow thread each took an arena of their own, and at the engine's ceiling those held ≈ 100 MiB, much of it
 * freed but kept. With two, arenas and main heap held 77 instead of 116 MiB and the scale run peaked 15–89 MiB lower,
 * for perhaps a few per cent more CPU per row (CHANGELOG.md, "Worker memory at scale, again").
 */
export const MALLOC_ARENAS = 2;

export interface LaunchFacts {
  env: NodeJS.ProcessEnv;
  execArgv: readonly string[];
  /**
   * Whether the C library is glibc: musl and other platforms do not read MALLOC_ARENA_MAX. Asked only when the
   * deployer gave no arena setting (finding out reads the process report: a restarted worker need not).
   */
  glibc: () => boolean;
  /** The worker's SITECHAT_HEAP_GROWTH_PERCENT: 0 leaves V8's own heap sizing, the semi-spaces' too. */
  heapGrowthPercent: number | undefined;
}

export interface Relaunch {
  env: Record<string, string>;
  execArgv: string[];
}

/**
 * What the worker process must be started with that it cannot set for itself once running: glibc reads
 * MALLOC_ARENA_MAX and V8 the main thread's semi-space size only at start. A value the deployer gave (any
 * MALLOC_ARENA_MAX or arena tunable, any semi-space flag) is kept. Undefined when nothing is missing, so a process
 * started with the plan's settings is never restarted again.
 */
export function memoryRelaunchPlan(facts: LaunchFacts): Relaunch | undefined {
  const { env, execArgv } = facts;
  const arenas = env.MALLOC_ARENA_MAX === undefined && !/malloc\.arena_max/u.test(env.GLIBC_TUNABLES ?? '') && facts.glibc();
  const semiSpace = Boolean(facts.heapGrowthPercent) && !semiSpaceGiven(execArgv, env.NODE_OPTIONS);
  if (!arenas && !semiSpace) return undefined;
  const defined = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  return {
    env: arenas ? { ...defined, MALLOC_ARENA_MAX: String(MALLOC_ARENAS) } : defined,
    execArgv: semiSpace ? [...execArgv, `--max-semi-space-size=${SEMI_SPACE_MIB}`] : [...execArgv],
  };
}

type Execve = (file: string, args: string[], env: Record<string, string>) => never;

/** Whether this process runs on glibc (its report names the glibc version); false off Linux. */
export function runsOnGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return typeof report?.header?.glibcVersionRuntime === 'string';
}

/**
 * Restarts this process in place (same pid, same standard streams) with the settings of `memoryRelaunchPlan`, where
 * Node can (`process.execve`: Node 22.15 and later, not on Windows); on Node 20 it returns and the worker runs as
 * started (docs/deployment.md says what to set there). Call it first thing in a long-lived worker process, before it
 * opens anything: nothing of the current process survives but its standard streams.
 */
export function relaunchWithMemorySettings(heapGrowthPercent: number | undefined): void {
  const execve = (process as unknown as { execve?: Execve }).execve;
  if (typeof execve !== 'function') return;
  const plan = memoryRelaunchPlan({ env: process.env, execArgv: process.execArgv, glibc: runsOnGlibc, heapGrowthPercent });
  if (!plan) return;
  try {
    execve.call(process, process.execPath, [process.execPath, ...plan.execArgv, ...process.argv.slice(1)], plan.env);
  } catch {
    // The exec itself failed (a sandbox that forbids it): the worker runs as it is, only with more memory.
  }
}
