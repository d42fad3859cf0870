import type { TestProject } from 'vitest/node';
import { startLocalServer, type LocalServer } from '../src/temporal/localServer';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

let server: LocalServer | undefined;

/** One real Temporal dev server for the whole integration run, on a free port; stopped even when tests fail. */
export async function setup(project: TestProject): Promise<void> {
  const log = (line: string): void => void process.stdout.write(`[temporal] ${line}\n`);
  server = await startLocalServer({ log });
  project.provide('temporalAddress', server.address);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}
