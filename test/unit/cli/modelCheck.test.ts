import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/cli/logger';
import { checkModels, tenantModels } from '../../../src/cli/commands/run/modelCheck';
import { DEMO, startSimulator, type LimitsBody, type SimulatorHandle } from '../../../src/sim';

function capture(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (line: string) => void lines.push(`${level}: ${line}`);
  return { log: { info: push('info'), warn: push('warn'), error: push('error'), debug: push('debug'), out: push('out') }, lines };
}

/**
 * The model check before a run reads the tenant's limits, whose fields the spec does not show (§4.7): a server whose
 * limits list `models` gets a mistyped model refused before any question; one whose limits do not leaves the model to
 * the API (docs/api-decisions-client.md).
 */
describe('the model check against the limits body a server chooses (simulator over HTTP)', () => {
  const sims: SimulatorHandle[] = [];
  afterAll(async () => Promise.all(sims.map((s) => s.close())));
  const source = async (limitsBody: LimitsBody) => {
    const sim = await startSimulator({ rateLimit: 0, limitsBody });
    sims.push(sim);
    return { baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, tenantId: DEMO.tenantId };
  };

  it("limitsBody 'full': the models are known and a mistyped one is refused, naming the valid ones", async () => {
    const c = capture();
    expect(await tenantModels(await source('full'), c.log)).toEqual(['gpt-4o-mini', 'gpt-4o', 'gpt-3.5-mini-sim']);
    expect(await checkModels({ flag: 'gpt-4o-mni' }, await source('full'), c.log)).toBe(false);
    expect(c.lines).toContain('error: --model: "gpt-4o-mni" is not a model of the tenant; tenant demo-tenant offers: gpt-4o-mini, gpt-4o, gpt-3.5-mini-sim');
  });

  it.each<LimitsBody>(['no-models', 'empty'])("limitsBody '%s': nothing to check against, the run goes on and the model is left to the API", async (limitsBody) => {
    const c = capture();
    expect(await checkModels({ flag: 'gpt-4o-mni' }, await source(limitsBody), c.log)).toBe(true);
    expect(c.lines).toEqual(['debug: the limits of tenant demo-tenant list no models; the model is left to the API']);
  });
});
