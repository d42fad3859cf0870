/**
 * Diagnostic for the worker's resident memory: what bundling the workflow code at start-up (as `startWorkers` does)
 * costs a process, before and after a full GC.
 *
 *   npm run build && node --expose-gc dist/bench/probe-bundle-memory.js
 */
import { bundleWorkflows } from '../src/worker/worker';

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MiB`;

function line(label: string): void {
  const m = process.memoryUsage();
  process.stdout.write(`${label.padEnd(22)} rss ${mib(m.rss).padStart(8)}  heapUsed ${mib(m.heapUsed).padStart(8)}  external ${mib(m.external).padStart(8)}\n`);
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) process.stderr.write('(run with --expose-gc to see the after-GC line)\n');
  line('start');
  const bundle = await bundleWorkflows();
  line(`bundled (${mib(bundle.code.length)} code)`);
  gc?.();
  line('after full GC');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exitCode = 1;
});
