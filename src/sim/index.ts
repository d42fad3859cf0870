import type { AddressInfo } from 'node:net';
import { DEMO_API_KEY, JUDGE_PREFIX } from './constants';
import type { FaultConfig } from './faults/config';
import { createSimServer } from './http/server';
import type { SimulatorOptions } from './options';
import { Simulator } from './simulator';
import type { SimStats } from './stats';

export { ApiError, DEMO, DEMO_API_KEY, Endpoint, I_DONT_KNOW, PLAN_MESSAGE, type EndpointName } from './constants';
export type { EndpointFaults, FaultConfig } from './faults/config';
export { parseFaultConfig } from './faults/config';
export { defaultFixturesPath, loadFixtures, Plan, type DocumentInput, type Fixtures, type FixturesInput } from './fixtures';
export { DEFAULT_MODEL, MODEL_NAMES, WEAK_MODEL } from './kb/models';
export * from './options';
export type { SimStats } from './stats';
export { Simulator } from './simulator';

/** A running simulator. */
export interface SimulatorHandle {
  /** `http://host:port/api/v1` (or the `basePath` given): the `{base_url}` of the spec. */
  baseUrl: string;
  /** `http://host:port` (admin routes live under `/__sim/`). */
  origin: string;
  /** `http://host:port/v1`: base URL of the OpenAI-compatible judge route (a test double; any bearer key). */
  judgeBaseUrl: string;
  port: number;
  /** The demo key (`sk-sim-demo-0000`); valid only with the demo fixtures. */
  apiKey: string;
  /** What admin routes require (given or generated), or null when they are open (loopback, no token). */
  adminToken: string | null;
  stats(): SimStats;
  /** Clears sessions, requests, feedback, stats, rate-limit windows, simulated time, runtime documents, model-noise draws and forced answer models; keeps faults. */
  reset(): void;
  /** Replaces the fault configuration (validated; throws on bad input). Returns it. */
  setFaults(faults: FaultConfig): FaultConfig;
  getFaults(): FaultConfig;
  /** Moves simulated time forward (completes due requests, ages retention and key expiry). */
  advanceTime(ms: number): void;
  /** The state behind the server, for in-process inspection. */
  simulator: Simulator;
  /** Stops accepting connections, ends open ones and pending sync waits. */
  close(): Promise<void>;
}

/** Starts the Site Chat API simulator on `options.host:options.port` (default 127.0.0.1, a free port). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const sim = new Simulator(options);
  const server = createSimServer(sim);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(sim.options.port, sim.options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = sim.options.host.includes(':') ? `[${sim.options.host}]` : sim.options.host;
  const origin = `http://${host}:${port}`;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `${origin}${sim.options.basePath}`,
    origin,
    judgeBaseUrl: `${origin}${JUDGE_PREFIX}`,
    port,
    apiKey: DEMO_API_KEY,
    adminToken: sim.options.adminToken,
    stats: () => sim.snapshot(),
    reset: () => sim.reset(),
    setFaults: (faults) => sim.setFaults(faults),
    getFaults: () => sim.faults.get(),
    advanceTime: (ms) => sim.advanceTime(ms),
    simulator: sim,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        sim.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
