import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The test processes keep V8's compiled code of what they import (the Temporal SDK, the client, the simulator) on disk,
// as the CLI does for itself (src/cli/main.ts): each integration file runs in a fresh process that imports them again.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache');

// Six projects: `unit` and `unit-isolated` (pure logic, may use a local HTTP server), `conformance` (the client
// against the simulator over HTTP), `replay` (recorded workflow histories replayed against the current workflow code;
// no server), `workflow` (workflow code against mocked activities on the time-skipping test server) and `integration`
// (a real Temporal dev server, started once by globalSetup).

/** Unit test files that need a process of their own: one replaces a module (vi.mock), two measure their heap. */
const UNIT_ISOLATED = ['test/unit/reports/fileStoreAppends.test.ts', 'test/unit/reports/pgStore.test.ts', 'test/unit/reports/fileStoreScale.test.ts'];

export default defineConfig({
  test: {
    // Four files at a time on a 2-core machine: the suite waits far more than it computes (runs paced at the API's
    // limit, servers starting, answers polled), so with 4 it used 145 % CPU and took 423 s against 688 s with 2
    // (`CI=true /usr/bin/time -v npx vitest run --maxWorkers=N`, 2026-11-28). The fault suite sets its own (below).
    maxWorkers: 4,
    projects: [
      // Unit files share their workers' module cache (isolate: false): 174 files took 65 s, most of it importing the
      // same modules again in a fresh process per file; shared, 26 s. A file that replaces a module (vi.mock) or
      // measures its heap needs a process of its own: `unit-isolated`. Environment stubs are undone after every test.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: UNIT_ISOLATED, isolate: false, unstubEnvs: true, unstubGlobals: true, testTimeout: 20_000 } },
      { test: { name: 'unit-isolated', include: UNIT_ISOLATED, testTimeout: 20_000 } },
      { test: { name: 'conformance', include: ['test/conformance/**/*.test.ts'], testTimeout: 30_000 } },
      // Bundling the workflows takes seconds on a loaded machine, hence the hook's room.
      { test: { name: 'replay', include: ['test/replay/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 180_000 } },
      // Workflow code against mocked activities on Temporal's time-skipping test server (one per file; no dev server).
      { test: { name: 'workflow', include: ['test/workflow/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 180_000 } },
      // The fault suite (`npm run test:faults`): its own Temporal server, which it stops and restarts; minutes long.
      ...(process.env.SITECHAT_FAULTS === '1'
        // Two files at a time in `npm run test:faults`, three in .ci/run (298 s beside the compatibility subset):
        // each runs its own Temporal server, simulator and worker processes, and times outages it waits out.
        // Most files run their own Temporal server (they stop it); globalSetup's serves the ones that only kill workers.
        ? [{ test: { name: 'faults', include: ['test/faults/**/*.test.ts'], globalSetup: ['test/globalSetup.ts'], testTimeout: 600_000, hookTimeout: 180_000 } }]
        : []),
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/cli/**/*.test.ts'],
          globalSetup: ['test/globalSetup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
