/**
 * `--model`, a config's `model` and the dataset's `model` column checked against the models the tenant's limits list
 * (`GET /m2m/tenants/{tenant}/limits`), before any question is sent: a mistyped model would otherwise fail every row
 * only once it is asked. The spec shows no body fields, so a service whose limits carry no `models` list is not
 * checked, and neither is one this process cannot ask (no tenant id or no key here: the workers hold it).
 */
import { SiteChatClient } from '../../../api';
import { walkDataset } from '../../../datasets';
import { DEMO } from '../../../sim/constants';
import type { Logger } from '../../logger';
import { capLines } from './validate';
import { apiObserver } from '../../../observability/apiObserver';

/** Where the tenant's limits can be read from this process, if anywhere. */
export interface ModelSource {
  baseUrl?: string;
  apiKey?: string;
  tenantId?: string;
}

/** The API this process talks to: the embedded simulator (demo key and tenant), or SITECHAT_BASE_URL with its key and SITECHAT_TENANT_ID. */
export function modelSource(simulatorBaseUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): ModelSource {
  if (simulatorBaseUrl) return { baseUrl: simulatorBaseUrl, apiKey: DEMO.apiKey, tenantId: env.SITECHAT_TENANT_ID ?? DEMO.tenantId };
  return { baseUrl: env.SITECHAT_BASE_URL, apiKey: env.SITECHAT_API_KEY, tenantId: env.SITECHAT_TENANT_ID };
}

/** The tenant's models, or undefined when they cannot be known here (said in a debug line, or a warning on a failed call). */
export async function tenantModels(source: ModelSource, log: Logger): Promise<string[] | undefined> {
  const { baseUrl, apiKey, tenantId } = source;
  if (!baseUrl || !apiKey || !tenantId) {
    log.debug('models not checked before the start: needs SITECHAT_TENANT_ID and the API key in this process');
    return undefined;
  }
  const client = new SiteChatClient({ baseUrl, apiKey, connectTimeoutMs: 10_000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000, observer: apiObserver });
  try {
    const limits = await client.tenants.limits(tenantId);
    const models = limits.models;
    if (!Array.isArray(models) || !models.every((m) => typeof m === 'string')) {
      log.debug(`the limits of tenant ${tenantId} list no models; the model is left to the API`);
      return undefined;
    }
    return models;
  } catch (err) {
    log.warn(`could not read the models of tenant ${tenantId} (${err instanceof Error ? err.message : String(err)}); the model is left to the API`);
    return undefined;
  } finally {
    await client.close();
  }
}

export interface ModelsInUse {
  /** `--model` as given. */
  flag?: string;
  /** The config file's `model` and the file, when no `--model` overrides it. */
  config?: { file: string; model: string };
  /** The config file's `variants` that name a model. */
  variants?: { file: string; models: { index: number; model: string }[] };
  /** The dataset, read again for its `model` column when it has one. */
  dataset?: { path: string; shown: string; hasModelColumn: boolean; delimiter?: string; defaultEmail?: string };
}

/** Every model named that the tenant does not offer, as field-qualified problems (flag, config file, dataset line). */
export async function modelProblems(used: ModelsInUse, valid: readonly string[], tenantId: string): Promise<string[]> {
  const known = new Set(valid);
  const offer = `tenant ${tenantId} offers: ${valid.join(', ')}`;
  const problems: string[] = [];
  // `--model a,b` (a matrix run) names each model it compares.
  for (const model of used.flag?.split(',').map((m) => m.trim()) ?? []) {
    if (!known.has(model)) problems.push(`--model: ${JSON.stringify(model)} is not a model of the tenant; ${offer}`);
  }
  for (const model of used.config?.model.split(',').map((m) => m.trim()) ?? []) {
    if (!known.has(model)) problems.push(`${used.config?.file ?? ''}: \`model\`: ${JSON.stringify(model)} is not a model of the tenant; ${offer}`);
  }
  for (const v of used.variants?.models ?? []) {
    if (!known.has(v.model)) problems.push(`${used.variants?.file ?? ''}: \`variants[${v.index}].model\`: ${JSON.stringify(v.model)} is not a model of the tenant; ${offer}`);
  }
  const ds = used.dataset;
  if (ds?.hasModelColumn) {
    const rows: string[] = [];
    // One more streamed pass, only for datasets that name models per row.
    await walkDataset(ds.path, { delimiter: ds.delimiter, defaultEmail: ds.defaultEmail }, (row) => {
      if (row.model && !known.has(row.model)) rows.push(`${ds.shown}:${row.line}: \`model\` ${JSON.stringify(row.model)} is not a model of the tenant; ${offer}`);
    });
    problems.push(...capLines(rows));
  }
  return problems;
}

/** Checks the models in use when the tenant's list can be had; prints the problems and returns false when there is any. */
export async function checkModels(used: ModelsInUse, source: ModelSource, log: Logger): Promise<boolean> {
  if (used.flag === undefined && used.config === undefined && !used.variants?.models.length && !used.dataset?.hasModelColumn) return true;
  const valid = await tenantModels(source, log);
  if (valid === undefined) return true;
  const problems = await modelProblems(used, valid, source.tenantId as string);
  for (const line of problems) log.error(line);
  if (problems.length > 0) log.error('unknown model; nothing was sent. Fix the model and run again.');
  return problems.length === 0;
}
