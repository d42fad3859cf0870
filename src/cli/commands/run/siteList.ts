import { UsageError } from '../../usageError';

/**
 * Site ids of a multi-site run name folders (`runs/<runId>-<site>/`) and workflow ids, so they are held to what is
 * safe in both: letters, digits, `.`, `_`, `-`, starting with a letter or digit.
 */
const SITE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/u;

/** True when a `--site` value (or SITECHAT_SITE_ID, or the config's `site`) names several sites. */
export function isSiteList(raw: string | undefined): raw is string {
  return raw !== undefined && raw.includes(',');
}

/**
 * `a,b,c` → `['a', 'b', 'c']` (spaces around names allowed). Refuses an empty name (`a,,b`, a trailing comma), a
 * name used twice, and names that are not safe as folder names; the message names `flag`.
 */
export function parseSiteList(raw: string, flag: string): string[] {
  const names = raw.split(',').map((s) => s.trim());
  const problems: string[] = [];
  names.forEach((name, i) => {
    if (name === '') problems.push(`site ${i + 1} of ${names.length} is empty`);
    else if (!SITE_ID.test(name)) problems.push(`site ${JSON.stringify(name)} is not a site id (letters, digits, ".", "_", "-")`);
    else if (names.indexOf(name) !== i) problems.push(`site ${JSON.stringify(name)} is given twice`);
  });
  if (problems.length > 0) throw new UsageError(`${flag} ${JSON.stringify(raw)}: ${problems.join('; ')}`);
  return names;
}
