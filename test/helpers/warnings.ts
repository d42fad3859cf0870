import type { ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';

/**
 * A warning as Node prints it on stderr: `(node:1234) MaxListenersExceededWarning: …`,
 * `(node:1234) [DEP0040] DeprecationWarning: …`. No process of the runner may print one in normal use.
 */
const NODE_WARNING = /^\(node:\d+\) (?:\[\w+\] )?\w*Warning\b.*$/gmu;

/** The Node warnings in a process's stderr, one line each. */
export function nodeWarnings(stderr: string): string[] {
  return stderr.match(NODE_WARNING) ?? [];
}

/** Throws, naming the process and its warnings, when `stderr` holds any. */
export function expectNoWarnings(what: string, stderr: string): void {
  const found = nodeWarnings(stderr);
  if (found.length > 0) throw new Error(`${what} printed ${found.length} Node warning(s) on stderr:\n${found.join('\n')}\n--- its stderr:\n${stderr}`);
}

/** Warnings seen on the stderr of the processes this test file watches. */
const seen: string[] = [];

// A watched process may print its warning long after the test that started it: the file fails at its end.
afterAll(() => {
  if (seen.length > 0) throw new Error(`processes of this test file printed Node warnings on stderr:\n${seen.join('\n')}`);
});

/**
 * Watches a child process's stderr (which must be piped): a Node warning there fails the test file. The caller may
 * read the stream too.
 */
export function failOnWarnings(what: string, child: ChildProcess): void {
  let partial = '';
  child.stderr?.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) for (const warning of nodeWarnings(line)) seen.push(`${what}: ${warning}`);
  });
}

/**
 * Warnings this process emits from now on (an in-process worker's, for one): `check()` throws when there were any,
 * and stops listening.
 */
export function watchOwnWarnings(what: string): { check(): void } {
  const own: string[] = [];
  const onWarning = (w: Error): void => void own.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  return {
    check() {
      process.off('warning', onWarning);
      if (own.length > 0) throw new Error(`${what} emitted Node warnings:\n${own.join('\n')}`);
    },
  };
}
