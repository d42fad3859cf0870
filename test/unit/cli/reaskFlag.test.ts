import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../src/config';
import { resolveRunOptions } from '../../../src/cli/commands/run/runOptions';
import { validateRunFlags } from '../../../src/cli/commands/run/validate';
import { configErrorOf, configScratch } from '../../helpers/configFiles';

const { write } = configScratch('reask-config-');

describe('--reask-failed and the config key reaskFailed', () => {
  it('refuses a bad value naming the flag, on runs and backfills alike', async () => {
    const problems = async (kind: 'evaluation' | 'backfill', reaskFailed: string): Promise<string[]> =>
      (await validateRunFlags(kind, { worker: true, site: 'demo-site', reaskFailed }, {})).problems;
    expect(await problems('evaluation', '0')).toEqual([]);
    expect(await problems('backfill', '5')).toEqual([]);
    expect(await problems('evaluation', '6')).toEqual(['--reask-failed: must be a whole number from 0 (off) to 5, got "6"']);
    expect(await problems('backfill', 'two')).toEqual(['--reask-failed: must be a whole number from 0 (off) to 5, got "two"']);
  });

  it('flows from the flag, else the config file, into the run options; the default (2) leaves the options as they were', async () => {
    const config = await loadRunConfig(await write('reask.yaml', 'reaskFailed: 0\n'));
    const of = async (reaskFailed?: string, withConfig = false) =>
      (await resolveRunOptions({ worker: true, site: 'demo-site', ...(reaskFailed !== undefined && { reaskFailed }) }, withConfig ? { config } : {})).options;
    expect(await of()).not.toHaveProperty('reaskFailed');
    expect(await of('2')).not.toHaveProperty('reaskFailed');
    expect(await of('0')).toMatchObject({ reaskFailed: 0 });
    expect(await of('4')).toMatchObject({ reaskFailed: 4 });
    expect(await of(undefined, true)).toMatchObject({ reaskFailed: 0 });
    expect(await of('3', true)).toMatchObject({ reaskFailed: 3 });
  });

  it('a config value out of range is refused with the file and the key', async () => {
    const path = await write('bad-reask.yaml', 'reaskFailed: 9\n');
    expect((await configErrorOf(path)).message).toMatch(/bad-reask\.yaml.*reaskFailed/s);
  });
});
