/** The run config file (`sitechat.config.yaml` / `.json`): defaults for every run started with it. */
import { z } from 'zod';
import type { AssertionSpec, GradingThresholds } from '../domain/grade';
import { assertionSpecSchema } from './assertions';
import { MAX_REASK_FAILED } from '../api/failureRules';
import { canonicalColumn, isKnownColumn } from '../datasets/columns';
import { MAX_CONFIRM } from '../datasets/confirm';
import { MAX_REPEAT } from '../datasets/repeat';
import { isDuration } from './duration';
import { NotifySpecError, parseDestination, parseTriggers } from '../domain/notify';

/** How feedback is sent for graded answers. */
export const FeedbackMode = {
  /** Send `good` for a passing row and `bad` for a failing one. */
  graded: 'graded',
  /** Send no feedback. */
  none: 'none',
} as const;
export type FeedbackMode = (typeof FeedbackMode)[keyof typeof FeedbackMode];

/** A loaded, validated run config. Every field is a default that CLI flags override. */
export interface RunConfig {
  /** Assertions applied to every row, after those derived from the row's columns. @default [] */
  assertions: AssertionSpec[];
  /** Pass marks for reference-based graders whose spec has none. @default { reference: 0.6, f1: 0.5, rougeL: 0.4, levenshtein: 0.8 } */
  thresholds?: GradingThresholds;
  /** Site id to run against. @default the worker's SITECHAT_SITE_ID */
  site?: string;
  /** Conversations in flight at once. @default 50 (the CLI's default) */
  concurrency?: number;
  /** @default 'graded' */
  feedback?: FeedbackMode;
  /** How long to wait for an async answer, as a duration string. @default '5m' */
  answerTimeout?: string;
  /** `answerTimeout` in milliseconds, when given. */
  answerTimeoutMs?: number;
  /** Email for rows without one (a new session needs an email). */
  email?: string;
  /** The run fails when its pass rate is below this (0..1). @default none */
  failUnder?: number;
  /** The run fails when more rows than this (0..1) end in `error` or `timed_out`. @default 0 */
  maxErrorRate?: number;
  /** The run fails when more of its graded rows than this (0..1) stay `uncertain` (needs review). @default 0.1 */
  maxUncertainRate?: number;
  /** Lost feedback and sessions left open only warn instead of failing the gate. @default false */
  allowSideEffectFailures?: boolean;
  /**
   * An evaluation run may start on a dataset in which no row has anything to grade (`--allow-ungraded`); it is
   * refused before the start otherwise (docs/datasets.md). @default false
   */
  allowUngraded?: boolean;
  /**
   * Dataset columns kept as metadata although their names are close to a column the runner reads (`mode` next to
   * `model`, `locale` next to `ui_locale`), which are refused as likely misspellings otherwise (docs/datasets.md).
   * @default []
   */
  metadata?: string[];
  /** Re-asks per row of a request the service failed (`--reask-failed`); 0 turns them off. @default 2 */
  reaskFailed?: number;
  /** Model for rows without one. @default the site's configured model */
  model?: string;
  /** Every conversation asked this many times, in fresh sessions (`--repeat`). @default 1 */
  repeat?: number;
  /** Regressed rows asked this many more times before the gate fails on them (`--confirm`). @default 0 (runs), 2 (schedules) */
  confirm?: number;
  /** Notification destinations, as `--notify` takes them: `slack:ENV`, `teams:ENV`, `webhook:URL_ENV:SECRET_ENV`. */
  notify?: string[];
  /** When to notify, as `--notify-on` takes it: `failed,recovered` or a list. @default failed, recovered */
  notifyOn?: string | string[];
  /**
   * A matrix run: each named variant is a run of its own over the same dataset, with these settings over the run's,
   * and the parent compares them (docs/compare.md). At least two. @default none (one run)
   */
  variants?: VariantConfig[];
}

/** One variant of a matrix run, as written in the config. Keys as the dataset's columns and the API's fields. */
export interface VariantConfig {
  /** Names the variant's run (`<runId>-<name>`) and its column in the comparison. */
  name: string;
  model?: string;
  response_language?: string;
  ui_locale?: string;
  site?: string;
}

/** Variant names and site ids name folders and workflow ids: letters, digits, `.`, `_`, `-`, first a letter or digit. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/u;
const SAFE_NAME_RULE = 'must be letters, digits, ".", "_" or "-", starting with a letter or digit (it names a folder and a workflow)';

const variantSchema = z.strictObject({
  name: z.string().regex(SAFE_NAME, { error: SAFE_NAME_RULE }),
  model: z.string().min(1).optional(),
  response_language: z.string().min(1).optional(),
  ui_locale: z.string().min(1).optional(),
  site: z.string().regex(SAFE_NAME, { error: `(a site id) ${SAFE_NAME_RULE}` }).optional(),
});

const variantsSchema = z.array(variantSchema).min(2, { error: 'must list at least two variants (a comparison needs two)' }).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((v, i) => {
    if (seen.has(v.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${JSON.stringify(v.name)} is the name of an earlier variant: names must differ` });
    seen.add(v.name);
  });
});

/** A zod check from a parser that throws NotifySpecError: its message becomes the issue. */
function parsedBy(parse: (value: never) => unknown) {
  return (value: unknown, ctx: z.RefinementCtx): void => {
    try {
      parse(value as never);
    } catch (err) {
      if (!(err instanceof NotifySpecError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message });
    }
  };
}

const ratio = z.number().min(0).max(1);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

/** zod schema for the file's content (before custom module paths are resolved). */
export const runConfigSchema = z
  .strictObject({
    assertions: z.array(assertionSpecSchema).default([]),
    thresholds: z.strictObject({ reference: ratio.optional(), f1: ratio.optional(), rougeL: ratio.optional(), levenshtein: ratio.optional() }).optional(),
    site: z.string().min(1).optional(),
    concurrency: z.number().int().min(1).optional(),
    feedback: z.enum([FeedbackMode.graded, FeedbackMode.none]).optional(),
    answerTimeout: z.string().refine(isDuration, { error: 'must be a duration such as "90s", "5m" or "1h"' }).optional(),
    email: z.string().regex(EMAIL, { error: 'must be an email address' }).optional(),
    failUnder: ratio.optional(),
    maxErrorRate: ratio.optional(),
    maxUncertainRate: ratio.optional(),
    allowSideEffectFailures: z.boolean().optional(),
    allowUngraded: z.boolean().optional(),
    metadata: z.array(z.string().trim().min(1).refine((name) => !isKnownColumn(canonicalColumn(name)), {
      error: (iss) => `${JSON.stringify(iss.input)} is a column the runner reads: only other columns can be declared as metadata (docs/datasets.md)`,
    })).optional(),
    reaskFailed: z.number().int().min(0).max(MAX_REASK_FAILED).optional(),
    model: z.string().min(1).optional(),
    repeat: z.number().int().min(1).max(MAX_REPEAT).optional(),
    confirm: z.number().int().min(0).max(MAX_CONFIRM).optional(),
    notify: z.array(z.string().superRefine(parsedBy(parseDestination))).optional(),
    notifyOn: z.union([z.string(), z.array(z.string())]).superRefine(parsedBy(parseTriggers)).optional(),
    variants: variantsSchema.optional(),
  }) satisfies z.ZodType<Omit<RunConfig, 'answerTimeoutMs'>, unknown>;
