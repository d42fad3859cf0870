import type { Command } from 'commander';
import { withExamples } from '../../helpText';

export function register(program: Command, argv: readonly string[] = process.argv): void {
  // `sitechat temporal --version` (or -V) is the Temporal CLI's: sitechat's own options end where this command starts.
  // Only for this command, so `sitechat run x --version` still prints sitechat's version.
  if (argv[2] === 'temporal') program.enablePositionalOptions();
  withExamples(program
    .command('temporal')
    .description("The project's Temporal CLI (found or provisioned like the dev server's): arguments, terminal and exit code passed through; sitechat's secrets stay out of its environment")
    .argument('[args...]', 'arguments for the Temporal CLI, e.g. workflow list')
    // Everything after `temporal` is the Temporal CLI's, its --help included.
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments(), [
    ['npx sitechat temporal workflow list --query "WorkflowId STARTS_WITH \'sitechat-\'"', 'every sitechat workflow on TEMPORAL_ADDRESS'],
    ['npx sitechat temporal workflow describe --workflow-id sitechat-evaluation-20261122-0412-5f3a9c', 'one run as Temporal sees it'],
  ], 'temporal')
    .action(async () => {
      const { temporalAction } = await import('./action.js');
      process.exitCode = await temporalAction(argsAfter('temporal', process.argv));
    });
}

/** The raw arguments after the command's name: commander would take `--version` or `-h` for its own. */
export function argsAfter(name: string, argv: readonly string[]): string[] {
  const at = argv.indexOf(name, 2);
  return at < 0 ? [] : argv.slice(at + 1);
}
