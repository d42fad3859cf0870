/**
 * What a run, schedule or cleanup is told to notify, and when. Plain JSON that travels through workflow input and
 * history, so it holds only the NAMES of the worker's environment variables: the webhook URLs and signing secrets
 * stay in the worker's environment. Workflow-safe: no Node imports here.
 */

/** Where a notification goes. */
export const NotifyKind = {
  /** A Slack incoming webhook (Block Kit message). */
  slack: 'slack',
  /** A Microsoft Teams workflow webhook (Adaptive Card). */
  teams: 'teams',
  /** Any HTTPS endpoint: the versioned JSON payload of docs/notifications.md, HMAC-SHA256 signed. */
  webhook: 'webhook',
} as const;
export type NotifyKind = (typeof NotifyKind)[keyof typeof NotifyKind];

/** One destination: the env var holding its URL and, for `webhook`, the one holding the signing secret. */
export interface NotifyDestination {
  kind: NotifyKind;
  urlEnv: string;
  /** `webhook` only: the shared secret the body is signed with. */
  secretEnv?: string;
}

/** When a notification is sent. */
export const NotifyTrigger = {
  /** The verdict is FAILED (a run whose gate failed, a run or cleanup that stopped on an error). */
  failed: 'failed',
  /** The verdict passed and the last compatible run before it failed (docs/notifications.md). */
  recovered: 'recovered',
  /** The run or cleanup was cancelled. */
  cancelled: 'cancelled',
  /** Every end, whatever the verdict. */
  always: 'always',
} as const;
export type NotifyTrigger = (typeof NotifyTrigger)[keyof typeof NotifyTrigger];

export interface NotifySpec {
  destinations: NotifyDestination[];
  /** @default ['failed', 'recovered'] */
  on: NotifyTrigger[];
}

export const DEFAULT_TRIGGERS: readonly NotifyTrigger[] = [NotifyTrigger.failed, NotifyTrigger.recovered];

/** A POSIX-style environment variable name, as shells accept them: `SITECHAT_SLACK_WEBHOOK`. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/u;

/** A malformed `--notify` / `--notify-on` value (or the config's `notify` / `notifyOn`). */
export class NotifySpecError extends Error {
  override name = 'NotifySpecError';
}

export function isEnvName(name: string): boolean {
  return ENV_NAME.test(name);
}

const KINDS = Object.values(NotifyKind) as string[];
const TRIGGERS = Object.values(NotifyTrigger) as string[];

/**
 * `slack:ENV`, `teams:ENV` or `webhook:URL_ENV:SECRET_ENV`. A value that looks like a URL is refused with a hint:
 * the URL itself must not go on a command line that ends up in workflow history.
 */
export function parseDestination(raw: string): NotifyDestination {
  const text = raw.trim();
  if (/^[a-z]+:\/\//iu.test(text) || text.includes('://')) {
    throw new NotifySpecError('takes the NAME of an environment variable holding the webhook URL (e.g. slack:SITECHAT_SLACK_WEBHOOK), not the URL itself: the URL is a secret and stays in the worker\'s environment');
  }
  const [kind = '', urlEnv, secretEnv, ...rest] = text.split(':');
  if (!KINDS.includes(kind)) throw new NotifySpecError(`unknown destination ${JSON.stringify(kind)} in ${JSON.stringify(text)}: use slack:ENV, teams:ENV or webhook:URL_ENV:SECRET_ENV`);
  if (rest.length > 0) throw new NotifySpecError(`too many parts in ${JSON.stringify(text)}`);
  if (urlEnv === undefined || !isEnvName(urlEnv)) throw new NotifySpecError(`${JSON.stringify(text)}: ${JSON.stringify(urlEnv ?? '')} is not an environment variable name (letters, digits, _; not starting with a digit)`);
  if (kind === NotifyKind.webhook) {
    if (secretEnv === undefined || !isEnvName(secretEnv)) {
      throw new NotifySpecError(`${JSON.stringify(text)}: a webhook needs the name of the variable holding its signing secret: webhook:URL_ENV:SECRET_ENV`);
    }
    return { kind, urlEnv, secretEnv };
  }
  if (secretEnv !== undefined) throw new NotifySpecError(`${JSON.stringify(text)}: only webhook destinations take a secret (${kind} webhooks are not signed)`);
  return { kind: kind as NotifyKind, urlEnv };
}

/** `failed,recovered` → the triggers, each once. */
export function parseTriggers(raw: string | readonly string[]): NotifyTrigger[] {
  const parts = (typeof raw === 'string' ? raw.split(',') : [...raw]).map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw new NotifySpecError(`names no trigger: use ${TRIGGERS.join(', ')} (comma-separated)`);
  const unknown = parts.filter((p) => !TRIGGERS.includes(p));
  if (unknown.length > 0) throw new NotifySpecError(`unknown trigger ${unknown.map((u) => JSON.stringify(u)).join(', ')}: use ${TRIGGERS.join(', ')}`);
  return [...new Set(parts)] as NotifyTrigger[];
}

/** A destination as shown to people: `slack (SITECHAT_SLACK_WEBHOOK)`; names only, never a URL. */
export function destinationLabel(d: NotifyDestination): string {
  return `${d.kind} (${d.urlEnv})`;
}

/** The env var names a spec needs on the worker. */
export function requiredEnv(spec: NotifySpec): string[] {
  return [...new Set(spec.destinations.flatMap((d) => [d.urlEnv, ...(d.secretEnv ? [d.secretEnv] : [])]))];
}

export function hasDestinations(spec: NotifySpec | undefined): spec is NotifySpec {
  return spec !== undefined && spec.destinations.length > 0;
}

/** What became of one destination's notification; shown in the report and the CLI summary. */
export interface NotifyOutcome {
  destination: string;
  kind: NotifyKind;
  /** `delivered` (2xx), `failed` (refused or out of attempts), `not_sent` (no trigger matched). */
  status: 'delivered' | 'failed' | 'not_sent';
  /** The id the receiver de-duplicates on (same on every retry of this run's notification). */
  deliveryId?: string;
  /** The trigger that fired, when one did. */
  trigger?: NotifyTrigger;
  /** Why it failed: HTTP status and a short, scrubbed reason. */
  error?: string;
  /** Sends that may have reached the receiver (more than 1: a retry after a lost response; same delivery id). */
  attempts?: number;
}

/** One outcome in words, for the CLI summary and report.md: names and ids only. */
export function outcomeLine(o: NotifyOutcome): string {
  if (o.status === 'not_sent') return `${o.destination}: not sent (no trigger matched)`;
  const how = o.status === 'delivered' ? `delivered (trigger ${o.trigger ?? '?'})` : `FAILED: ${o.error ?? 'unknown error'}`;
  return `${o.destination}: ${how}${o.deliveryId ? `, delivery ${o.deliveryId}` : ''}`;
}
