import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { startLocalServer, type LocalServer } from '../src/temporal/localServer';
import { namespaceForFile } from './helpers/namespace';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

let server: LocalServer | undefined;

function testFiles(): string[] {
  return ['integration', 'cli', 'faults'].flatMap((dir) =>
    readdirSync(join(__dirname, dir)).filter((f) => f.endsWith('.test.ts')).map((f) => join(__dirname, dir, f)));
}

/**
 * One real Temporal dev server for the whole integration run, on a free port, stopped even when tests fail.
 * Every test file gets a namespace of its own, so workers of files running in parallel never take each
 * other's tasks.
 */
export async function setup(project: TestProject): Promise<void> {
  const log = (line: string): void => void process.stdout.write(`[temporal] ${line}\n`);
  server = await startLocalServer({ log, extraNamespaces: testFiles().map(namespaceForFile) });
  project.provide('temporalAddress', server.address);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}
