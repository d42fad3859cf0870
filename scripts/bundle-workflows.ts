/**
 * Bundles workflows/ once at build time into dist/workflow-bundle.js. A worker that loads it skips webpack at
 * start-up: faster, and ~87 MiB less resident memory that bundling would leave behind (see BENCHMARKS.md).
 */
import { writeFileSync } from 'node:fs';
import { bundleWorkflows, prebuiltBundlePath } from '../src/temporal/worker';

async function main(): Promise<void> {
  const { code } = await bundleWorkflows();
  writeFileSync(prebuiltBundlePath(), code);
}

main().catch((err: unknown) => {
  process.stderr.write(`bundling workflows failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
