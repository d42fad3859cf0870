import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { register } from '../../../src/cli/commands/sim/command';
import { type SimFlags } from '../../../src/cli/commands/sim/action';
import { optionsFromFlags } from '../../../src/cli/commands/sim/action';
import { resolveOptions, startSimulator } from '../../../src/sim';

/** The flags of `sitechat sim` as commander hands them over (the action replaced, so nothing starts). */
async function flagsOf(args: string[]): Promise<SimFlags> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  register(program);
  let flags: SimFlags | undefined;
  program.commands.find((c) => c.name() === 'sim')?.action((f: SimFlags) => void (flags = f));
  await program.parseAsync(['node', 'sitechat', 'sim', ...args]);
  if (!flags) throw new Error('sim did not run');
  return flags;
}

/** The other legal choice of each spec gap, from the command line (docs/simulator.md, "Options"). */
describe('sitechat sim: the gap choices as flags', () => {
  it('defaults are the simulator defaults', async () => {
    const o = resolveOptions(optionsFromFlags(await flagsOf([])));
    expect(o).toMatchObject({
      sessionOrder: 'newest-first', idFormat: 'uuid', timestamps: 'utc', errorBody: 'json', limitsBody: 'full', extraFields: false,
      basePath: '/api/v1', retryAfterSeconds: 1, retryAfterFormat: 'seconds', syncConfidence: true, statusConfidence: true, feedbackUuidCheck: 'both',
    });
  });

  it('each flag sets its option', async () => {
    const flags = await flagsOf([
      '--session-order', 'unsorted', '--id-format', 'opaque', '--timestamps', 'naive', '--error-body', 'html', '--limits-body', 'no-models',
      '--extra-fields', '--base-path', '/proxy/site-chat/api/v1/', '--retry-after', 'none', '--retry-after-format', 'http-date',
      '--no-sync-confidence', '--no-status-confidence', '--feedback-uuid-check', 'request',
    ]);
    expect(resolveOptions(optionsFromFlags(flags))).toMatchObject({
      sessionOrder: 'unsorted', idFormat: 'opaque', timestamps: 'naive', errorBody: 'html', limitsBody: 'no-models', extraFields: true,
      basePath: '/proxy/site-chat/api/v1', retryAfterSeconds: null, retryAfterFormat: 'http-date', syncConfidence: false, statusConfidence: false,
      feedbackUuidCheck: 'request',
    });
    expect(optionsFromFlags(await flagsOf(['--retry-after', '3']))).toMatchObject({ retryAfterSeconds: 3 });
  });

  it('refuses a value outside the choices, naming the flag', async () => {
    await expect(flagsOf(['--session-order', 'random'])).rejects.toThrow(/--session-order/);
    const flags = { ...(await flagsOf([])), retryAfter: 'soon' };
    expect(() => optionsFromFlags(flags)).toThrow('--retry-after must be an integer >= 0 (got `soon`)');
  });

  it.each(['/proxy/site-chat', 'proxy/api/v1', '/__sim/api/v1', '/a/../api/v1', '/a b/api/v1'])('refuses basePath %j', async (basePath) => {
    await expect(startSimulator({ basePath })).rejects.toThrow(/`basePath` must be a path such as \/proxy\/site-chat\/api\/v1/);
  });
});
