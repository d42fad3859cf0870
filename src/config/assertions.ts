/** zod schema for assertion specs written in a run config file (`assertions:`). */
import { z } from 'zod';
import type { AssertionSpec } from '../domain/grade';
import { compileRegex } from '../grading/regex';
import { isDuration, parseDuration } from './duration';

const text = z.string().min(1);
const phrases = z.array(text).min(1);
const ratio = z.number().min(0).max(1);

/** `ms: 30000` or `ms: "30s"`. */
const milliseconds = z.union([
  z.number().positive(),
  z.string().refine(isDuration, { error: 'must be milliseconds or a duration such as "30s"' }).transform(parseDuration),
]);

const regexSpec = z
  .strictObject({ type: z.literal('regex'), pattern: text, flags: z.string().regex(/^[dgimsuvy]*$/u).optional() })
  .superRefine((spec, ctx) => {
    const compiled = compileRegex(spec);
    if (typeof compiled === 'string') ctx.addIssue({ code: 'custom', path: ['pattern'], message: `does not compile: ${compiled}` });
  });

/** Every assertion type the runner knows; `custom.module` is resolved by the loader. */
export const assertionSpecSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('equals'), value: z.string() }),
  z.strictObject({ type: z.literal('contains'), value: text }),
  z.strictObject({ type: z.literal('icontains'), value: text }),
  z.strictObject({ type: z.literal('contains-all'), values: phrases }),
  z.strictObject({ type: z.literal('contains-any'), values: phrases }),
  z.strictObject({ type: z.literal('not-contains'), values: phrases }),
  regexSpec,
  z.strictObject({ type: z.literal('reference'), value: z.string().optional(), threshold: ratio.optional() }),
  z.strictObject({ type: z.literal('f1'), value: z.string().optional(), threshold: ratio.optional() }),
  z.strictObject({ type: z.literal('rouge-l'), value: z.string().optional(), threshold: ratio.optional() }),
  z.strictObject({ type: z.literal('levenshtein'), value: z.string().optional(), threshold: ratio.optional() }),
  z.strictObject({ type: z.literal('min-confidence'), threshold: z.number().min(0).max(100) }),
  z.strictObject({ type: z.literal('max-latency'), ms: milliseconds }),
  z.strictObject({ type: z.literal('custom'), module: text, threshold: ratio.optional() }),
  z.strictObject({ type: z.literal('llm-rubric'), value: text.optional() }),
  z.strictObject({ type: z.literal('llm-correctness') }),
]) satisfies z.ZodType<AssertionSpec, unknown>;

/** The known assertion types, for error messages. */
export const ASSERTION_TYPES = assertionSpecSchema.options.map((o) => o.shape.type.value);
