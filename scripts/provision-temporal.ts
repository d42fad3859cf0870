/**
 * Runs at `npm install` (prepare) so that a user never installs Temporal by hand: finds or installs the pinned
 * Temporal CLI into the git-ignored project cache and says which route it took. Never fails the install: without
 * a CLI, the SDK's own download is the last route at run time.
 */
import { locateTemporalCli } from '../src/temporal/cliLocator';

async function main(): Promise<void> {
  if (process.env.SITECHAT_SKIP_TEMPORAL_PROVISION) {
    process.stdout.write('sitechat: Temporal CLI provisioning skipped (SITECHAT_SKIP_TEMPORAL_PROVISION is set)\n');
    return;
  }
  const log = (line: string): void => void process.stdout.write(`sitechat: ${line}\n`);
  const cli = await locateTemporalCli({ log });
  for (const note of cli.notes) log(`  (${note})`);
  log(cli.path ? `Temporal CLI via ${cli.route}: ${cli.path}` : `no Temporal CLI found; the ${cli.route} route will be used at run time`);
}

main().catch((err: unknown) => {
  process.stderr.write(`sitechat: Temporal CLI provisioning failed: ${err instanceof Error ? err.message : String(err)}\n`);
});
