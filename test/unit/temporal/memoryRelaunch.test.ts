import { describe, expect, it } from 'vitest';
import { semiSpaceGiven } from '../../../src/worker/heapGrowth';
import { MALLOC_ARENAS, memoryRelaunchPlan, type LaunchFacts } from '../../../src/worker/memoryRelaunch';

const facts = (over: Partial<LaunchFacts> = {}): LaunchFacts => ({ env: { PATH: '/bin' }, execArgv: [], glibc: () => true, heapGrowthPercent: 30, ...over });

describe('memoryRelaunchPlan', () => {
  it('on glibc with nothing set: two malloc arenas and 16 MiB semi-spaces, the rest of the environment and flags kept', () => {
    const plan = memoryRelaunchPlan(facts({ env: { PATH: '/bin', SITECHAT_API_KEY: 'k', EMPTY: undefined }, execArgv: ['--enable-source-maps'] }));
    expect(plan).toEqual({
      env: { PATH: '/bin', SITECHAT_API_KEY: 'k', MALLOC_ARENA_MAX: String(MALLOC_ARENAS) },
      execArgv: ['--enable-source-maps', '--max-semi-space-size=16'],
    });
  });

  it('keeps what the deployer set: any MALLOC_ARENA_MAX (an empty one too), an arena tunable, a semi-space flag', () => {
    expect(memoryRelaunchPlan(facts({ env: { MALLOC_ARENA_MAX: '8' }, execArgv: ['--max-semi-space-size=32'] }))).toBeUndefined();
    expect(memoryRelaunchPlan(facts({ env: { MALLOC_ARENA_MAX: '', NODE_OPTIONS: '--max_semi_space_size=4' } }))).toBeUndefined();
    expect(memoryRelaunchPlan(facts({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4', NODE_OPTIONS: '--max-semi-space-size=16' } }))).toBeUndefined();
  });

  it('a process started with the plan is not restarted again', () => {
    const first = memoryRelaunchPlan(facts({ env: { NODE_OPTIONS: '--require x.js' } }));
    expect(first).toBeDefined();
    expect(memoryRelaunchPlan(facts({ env: first?.env, execArgv: first?.execArgv }))).toBeUndefined();
  });

  it('sets no arena count where the C library is not glibc, and no semi-space when heap sizing is left to V8', () => {
    expect(memoryRelaunchPlan(facts({ glibc: () => false }))).toEqual({ env: { PATH: '/bin' }, execArgv: ['--max-semi-space-size=16'] });
    expect(memoryRelaunchPlan(facts({ heapGrowthPercent: 0 }))).toEqual({ env: { PATH: '/bin', MALLOC_ARENA_MAX: '2' }, execArgv: [] });
    expect(memoryRelaunchPlan(facts({ glibc: () => false, heapGrowthPercent: 0 }))).toBeUndefined();
  });
});

describe('semiSpaceGiven', () => {
  it('finds the flag in either spelling on the command line or in NODE_OPTIONS', () => {
    expect(semiSpaceGiven(['--max-semi-space-size=8'], undefined)).toBe(true);
    expect(semiSpaceGiven([], '--inspect --max_semi_space_size=8')).toBe(true);
    expect(semiSpaceGiven(['--max-old-space-size=512'], '--semi-space-growth-factor=2')).toBe(false);
  });
});
