import type { Command } from 'commander';

/**
 * The commands that talk to the Site Chat API from this process, by command path: for them a SITECHAT_BASE_URL
 * that cannot name an API (no `/api/v1`, credentials, a query, another scheme) is a usage error, reported the same
 * way and before anything starts — no Temporal server, simulator, worker or request. `watch` and `review` talk to it
 * only with `--worker`; `schedule create nightly` reads the tenant's models with it.
 */
const USES_API: Readonly<Record<string, (opts: Record<string, unknown>) => boolean>> = {
  // With --no-worker too: the run names the API it asks by SITECHAT_BASE_URL (one run, one API).
  run: () => true,
  backfill: () => true,
  check: () => true,
  cleanup: () => true,
  worker: () => true,
  watch: (o) => o.worker === true,
  review: (o) => o.worker === true,
  'schedule create nightly': () => true,
};

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Whether `command` (as commander runs it, with its parsed options) asks the API from this process. */
export function usesApi(command: Command): boolean {
  return USES_API[pathOf(command)]?.(command.opts()) ?? false;
}

/**
 * Checks SITECHAT_BASE_URL before a command that uses it starts: throws the API client's ConfigurationError (a usage
 * error: exit 2) with the same message every command gives. Unset is fine: the command uses the embedded simulator.
 */
export async function checkApiSettings(command: Command, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const baseUrl = env.SITECHAT_BASE_URL;
  if (!baseUrl || !usesApi(command)) return;
  // Loaded here: --help and the commands that never ask the API stay fast.
  const [{ parseBaseUrl }, { scrubSecrets }] = await Promise.all([import('../api/config.js'), import('../observability/logging/scrubSecrets.js')]);
  parseBaseUrl(baseUrl, (text) => scrubSecrets(text, env));
}
