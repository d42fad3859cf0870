/** Workers running in this process (`startWorkers`). */
export interface RunningWorkers {
  /** Resolves when every worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/** What `runTogether` needs of a Temporal worker. */
export interface GroupMember {
  run(): Promise<void>;
  shutdown(): void;
  getState(): string;
}

/**
 * Runs the workers of one process (one per task queue) as one: when one fails (a connection it gave up on, a
 * bundle that cannot load), the others are shut down and `done` rejects with its error, so the process exits
 * non-zero instead of serving some queues while the runs that need the others never finish. `close` runs once
 * every worker has stopped.
 */
export function runTogether(workers: readonly GroupMember[], close: () => Promise<void>): RunningWorkers {
  const stopAll = (): void => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  };
  let failure: { error: unknown } | undefined;
  const runs = workers.map((w) => w.run().catch((error: unknown) => {
    failure ??= { error };
    stopAll();
  }));
  const done = Promise.all(runs).then(async () => {
    await close();
    if (failure) throw failure.error;
  });
  return {
    done,
    async shutdown() {
      stopAll();
      await done;
    },
  };
}
