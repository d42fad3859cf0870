/** Finds and loads the run config file, with errors that name the file and the key path. */
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { parseDuration } from './duration';
import { runConfigSchema, type RunConfig } from './schema';

/** File names looked for by `findRunConfig`, in order. */
export const CONFIG_FILE_NAMES = ['sitechat.config.yaml', 'sitechat.config.yml', 'sitechat.config.json'] as const;

/**
 * Alias expansions allowed when a YAML config becomes data (the `yaml` package's `maxAliasCount`). A config
 * needs few if any; a "billion laughs" file needs millions and is refused instead of filling memory.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

/** A run config is a page of settings; anything larger is a mistake (or an attack), not a config. */
export const MAX_CONFIG_BYTES = 1 << 20;

/** One problem in a config file: `path` like `assertions[2].threshold` (empty for the whole file). */
export interface ConfigIssue {
  path: string;
  message: string;
  /** 1-based line in a YAML file, for the keys a reader is most likely to mistype (so far `variants`). */
  line?: number;
}

/** The config file cannot be read or is invalid; the message lists every problem. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly file: string, readonly issues: ConfigIssue[]) {
    super(issues.map((i) => `${file}${i.line === undefined ? '' : `:${i.line}`}: ${i.path === '' ? '' : `\`${i.path}\` `}${i.message}`).join('\n'));
  }
}

/** The first `sitechat.config.{yaml,yml,json}` in `dir`, if any. */
export async function findRunConfig(dir: string): Promise<string | undefined> {
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = join(dir, name);
    if (await exists(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Loads and validates a run config (`.yaml`, `.yml` or `.json`). Relative `custom` grader paths
 * are resolved against the config file's directory and must exist.
 */
export async function loadRunConfig(path: string): Promise<RunConfig> {
  const { data: raw, lineOf } = parseFile(path, await readText(path));
  const parsed = runConfigSchema.safeParse(raw ?? {}, { reportInput: true });
  if (!parsed.success) {
    throw new ConfigError(path, parsed.error.issues.map((issue) => {
      const found = toConfigIssue(issue);
      // An unknown key is reported on its object: its own line is the one to point at.
      const at = issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined ? [...issue.path, issue.keys[0]] : issue.path;
      const line = issue.path[0] === 'variants' ? lineOf?.(at) : undefined;
      return line === undefined ? found : { ...found, line };
    }));
  }
  const config: RunConfig = { ...parsed.data };
  if (config.answerTimeout !== undefined) config.answerTimeoutMs = parseDuration(config.answerTimeout);
  const missing: ConfigIssue[] = [];
  config.assertions = await Promise.all(config.assertions.map(async (spec, i) => {
    if (spec.type !== 'custom') return spec;
    const module = isAbsolute(spec.module) ? spec.module : resolve(dirname(path), spec.module);
    if (!(await exists(module))) missing.push({ path: `assertions[${i}].module`, message: `file not found: ${module}` });
    return { ...spec, module };
  }));
  if (missing.length > 0) throw new ConfigError(path, missing);
  return config;
}

async function readText(path: string): Promise<string> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new ConfigError(path, [{ path: '', message: 'is a directory, not a config file' }]);
    if (info.size > MAX_CONFIG_BYTES) throw new ConfigError(path, [{ path: '', message: `is ${info.size} bytes; a config file may have at most ${MAX_CONFIG_BYTES}` }]);
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as { code?: unknown }).code;
    throw new ConfigError(path, [{ path: '', message: code === 'ENOENT' ? 'file not found' : `cannot read: ${String(error)}` }]);
  }
}

/** The file's data, and for YAML where a key path is written (the deepest node of it that exists). */
function parseFile(path: string, text: string): { data: unknown; lineOf?: (keys: readonly PropertyKey[]) => number | undefined } {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') {
    try {
      return { data: JSON.parse(text) as unknown };
    } catch (error) {
      throw new ConfigError(path, [{ path: '', message: `invalid JSON: ${(error as Error).message}` }]);
    }
  }
  if (ext !== '.yaml' && ext !== '.yml') {
    throw new ConfigError(path, [{ path: '', message: `unsupported config format "${ext}": use .yaml, .yml or .json` }]);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/u, ''), { lineCounter: lines });
  if (doc.errors.length > 0) {
    throw new ConfigError(path, doc.errors.map((e) => ({ path: '', message: `invalid YAML: ${e.message.split('\n')[0] ?? ''}` })));
  }
  try {
    return { data: doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) as unknown, lineOf: (keys) => lineOfPath(doc, lines, keys) };
  } catch (error) {
    // The yaml package throws a ReferenceError for excessive or unresolvable aliases.
    if (!(error instanceof ReferenceError)) throw error;
    const excessive = /excessive alias/iu.test(error.message);
    throw new ConfigError(path, [{
      path: '',
      message: excessive
        ? `invalid YAML: its aliases (*name) expand to too much data (limit ${MAX_YAML_ALIAS_COUNT} alias expansions); write the values out`
        : `invalid YAML: ${error.message}`,
    }]);
  }
}

/** Line of the deepest node along `keys` (an unknown key's issue points at its object, so the object's line). */
function lineOfPath(doc: Document, lines: LineCounter, keys: readonly PropertyKey[]): number | undefined {
  for (let n = keys.length; n > 0; n--) {
    const node: unknown = doc.getIn(keys.slice(0, n).map((k) => (typeof k === 'symbol' ? String(k) : k)), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

function toConfigIssue(issue: z.core.$ZodIssue): ConfigIssue {
  const path = formatPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return { path, message: `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}` };
    case 'invalid_union': {
      // A discriminated union names its options; a plain union explains through its branches' issues.
      const options = (issue as { options?: unknown[] }).options;
      if (options !== undefined) return { path, message: `must be one of ${options.map(String).join(', ')}` };
      const branch = issue.errors.flat().find((i) => i.code === 'custom') ?? issue.errors.flat()[0];
      return { path, message: branch === undefined ? issue.message : toConfigIssue(branch).message };
    }
    case 'invalid_type':
      return { path, message: issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}` };
    case 'too_small':
      if (issue.origin === 'array' && Number(issue.minimum) > 1) return { path, message: issue.message };
      return { path, message: issue.origin === 'array' || issue.origin === 'string' ? `must not be empty` : `must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}` };
    case 'too_big':
      return { path, message: `must be ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}` };
    case 'invalid_value':
      return { path, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { path, message: issue.message };
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? String(key) : `${out}.${String(key)}`), '');
}

function article(expected: string): string {
  return expected === 'array' || expected === 'object' || expected === 'int' ? `an ${expected}` : `a ${expected}`;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
