/**
 * The variants of a run, from `--site a,b`, `--model a,b` (every site × every model) or the config's `variants:`:
 * none for an ordinary run (one site, one model). Pure: the flag checks call it to find problems, `run` to start.
 */
import { SAFE_NAME, type RunConfig } from '../../../config/schema';
import type { VariantSpec } from '../../../domain/multiSite';
import { UsageError } from '../../usageError';
import { parseSiteList } from './siteList';

/** True when a `--model` value (or the config's `model`) names several models. */
export function isModelList(raw: string | undefined): raw is string {
  return raw !== undefined && raw.includes(',');
}

/** `a,b` → `['a', 'b']`; refuses an empty name and a name twice; the message names `flag`. */
export function parseModelList(raw: string, flag: string): string[] {
  const names = raw.split(',').map((s) => s.trim());
  const problems: string[] = [];
  names.forEach((name, i) => {
    if (name === '') problems.push(`model ${i + 1} of ${names.length} is empty`);
    else if (names.indexOf(name) !== i) problems.push(`model ${JSON.stringify(name)} is given twice (two variants of one model: name them in the config's \`variants:\`)`);
  });
  if (problems.length > 0) throw new UsageError(`${flag} ${JSON.stringify(raw)}: ${problems.join('; ')}`);
  return names;
}

export interface MatrixSources {
  /** The run's site as resolved (flag, config, environment): one id or a list. */
  site: string;
  /** Where `site` came from, for messages: `--site`, `SITECHAT_SITE_ID`, or the config's key. */
  siteFrom: string;
  /** The run's model as resolved (flag or config): one id, a list, or none. */
  model?: string;
  modelFrom: string;
  config?: RunConfig;
  /** The config file, for messages about its `variants`. */
  configFile?: string;
}

/**
 * The run's variants, or undefined for an ordinary run. The config's `variants:` take the run's site and model as
 * defaults (a variant's own keys win); a list of sites or models beside them is refused, as two ways of saying what
 * to compare. Lists of sites and models make every combination: `<site>` or `<model>` names a variant when only
 * one of them is a list, `<site>-<model>` when both are.
 */
export function resolveVariants(src: MatrixSources): VariantSpec[] | undefined {
  const sites = src.site.includes(',') ? parseSiteList(src.site, src.siteFrom) : [src.site.trim()];
  const models = isModelList(src.model) ? parseModelList(src.model, src.modelFrom) : [src.model];
  const listed = src.config?.variants;
  if (listed) {
    const where = `${src.configFile ?? 'the config'}: \`variants\``;
    if (sites.length > 1) throw new UsageError(`${src.siteFrom} names several sites and ${where} lists variants: give each variant its \`site\` instead`);
    if (models.length > 1) throw new UsageError(`${src.modelFrom} names several models and ${where} lists variants: give each variant its \`model\` instead`);
    return listed.map((v) => ({
      name: v.name, siteId: v.site ?? (sites[0] as string),
      ...((v.model ?? models[0]) !== undefined && { model: v.model ?? models[0] }),
      ...(v.response_language !== undefined && { responseLanguage: v.response_language }),
      ...(v.ui_locale !== undefined && { uiLocale: v.ui_locale }),
    }));
  }
  if (sites.length < 2 && models.length < 2) return undefined;
  const variants: VariantSpec[] = [];
  for (const siteId of sites) {
    for (const model of models) {
      const name = models.length < 2 ? siteId : sites.length < 2 ? (model as string) : `${siteId}-${model as string}`;
      variants.push({ name, siteId, ...(model !== undefined && { model }) });
    }
  }
  const unsafe = variants.filter((v) => !SAFE_NAME.test(v.name)).map((v) => JSON.stringify(v.name));
  if (unsafe.length > 0) {
    throw new UsageError(`${src.modelFrom}: ${unsafe.join(', ')} cannot name a variant's run (letters, digits, ".", "_", "-"): name the variants in the config's \`variants:\``);
  }
  const names = variants.map((v) => v.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new UsageError(`${src.siteFrom} and ${src.modelFrom} make two variants named ${JSON.stringify(twice[0])}: name the variants in the config's \`variants:\``);
  return variants;
}

/** `--reference NAME`: one of the variants' names. */
export function checkReference(reference: string, variants: readonly VariantSpec[] | undefined): void {
  if (!variants) throw new UsageError('--reference names a variant of a matrix run: give --model a,b, --site a,b or the config\'s `variants:` too');
  if (!variants.some((v) => v.name === reference)) {
    throw new UsageError(`--reference ${JSON.stringify(reference)} is not a variant of this run; the variants are ${variants.map((v) => v.name).join(', ')}`);
  }
}

/** The distinct sites of the variants, in order of first use: each one's access is checked once. */
export function variantSites(variants: readonly VariantSpec[]): string[] {
  return [...new Set(variants.map((v) => v.siteId))];
}
