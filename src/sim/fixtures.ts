import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../shared/projectRoot';
import { MODEL_NAMES } from './kb/models';

/** Plans; only level2 and level3 include M2M API access. */
export const Plan = { level1: 'level1', level2: 'level2', level3: 'level3' } as const;
export type Plan = (typeof Plan)[keyof typeof Plan];

/**
 * A document: text `{ title, content, category }` or Q&A `{ title, question, answer, category }`
 * (spec §4.8). `title` and either `content` or both `question` and `answer` are required here.
 */
export const documentSchema = z
  .object({
    id: z.string().min(1).optional(),
    title: z.string().trim().min(1, 'must be a non-empty string'),
    content: z.string().trim().min(1, 'must be a non-empty string').optional(),
    question: z.string().trim().min(1, 'must be a non-empty string').optional(),
    answer: z.string().trim().min(1, 'must be a non-empty string').optional(),
    category: z.string().optional(),
  })
  .superRefine((d, ctx) => {
    const qa = d.question !== undefined || d.answer !== undefined;
    if (qa && d.content !== undefined) ctx.addIssue({ code: 'custom', message: 'has both `content` and `question`/`answer`; send one shape', path: [] });
    else if (qa && d.question === undefined) ctx.addIssue({ code: 'custom', message: 'is required for a Q&A document', path: ['question'] });
    else if (qa && d.answer === undefined) ctx.addIssue({ code: 'custom', message: 'is required for a Q&A document', path: ['answer'] });
    else if (!qa && d.content === undefined) ctx.addIssue({ code: 'custom', message: 'is required (or `question` and `answer`)', path: ['content'] });
  });
export type DocumentInput = z.input<typeof documentSchema>;

const keySchema = z.object({
  key: z.string().min(1, 'must be a non-empty string'),
  name: z.string().optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  revoked: z.boolean().optional(),
});

const siteSchema = z.object({
  id: z.string().min(1, 'must be a non-empty string'),
  name: z.string().optional(),
  defaultModel: z.enum(MODEL_NAMES as [string, ...string[]]).optional(),
  documents: z.array(documentSchema).default([]),
});

const tenantSchema = z.object({
  id: z.string().min(1, 'must be a non-empty string'),
  name: z.string().optional(),
  plan: z.enum([Plan.level1, Plan.level2, Plan.level3]),
  keys: z.array(keySchema).default([]),
  sites: z.array(siteSchema).default([]),
});

export const fixturesSchema = z.object({ tenants: z.array(tenantSchema) });
export type FixturesInput = z.input<typeof fixturesSchema>;
export type Fixtures = z.output<typeof fixturesSchema>;
export type TenantFixture = Fixtures['tenants'][number];
export type SiteFixture = TenantFixture['sites'][number];

/** `datasets/knowledge-base.json` of this package: the built-in demo fixtures. */
export function defaultFixturesPath(): string {
  return join(projectRoot(), 'datasets', 'knowledge-base.json');
}

/** Formats the first zod issue as "<label>: `a[0].b` <message>". */
export function describeIssue(label: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
  return `${label}: ${path ? `\`${path}\` ` : ''}${issue?.message ?? 'is invalid'}`;
}

/** Loads and validates fixtures from a file path (relative to the cwd) or an object. Throws with the field at fault. */
export function loadFixtures(source: string | FixturesInput = defaultFixturesPath()): Fixtures {
  const label = typeof source === 'string' ? `fixtures ${source}` : 'fixtures';
  let raw: unknown = source;
  if (typeof source === 'string') {
    try {
      raw = JSON.parse(readFileSync(source, 'utf8'));
    } catch (err) {
      throw new Error(`${label}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const parsed = fixturesSchema.safeParse(raw);
  if (!parsed.success) throw new Error(describeIssue(label, parsed.error));
  const seen = { tenant: new Set<string>(), site: new Set<string>(), key: new Set<string>() };
  const once = (kind: keyof typeof seen, value: string, where: string) => {
    if (seen[kind].has(value)) throw new Error(`${label}: \`${where}\` duplicate ${kind} \`${value}\``);
    seen[kind].add(value);
  };
  parsed.data.tenants.forEach((t, ti) => {
    once('tenant', t.id, `tenants[${ti}].id`);
    t.keys.forEach((k, ki) => once('key', k.key, `tenants[${ti}].keys[${ki}].key`));
    t.sites.forEach((s, si) => once('site', s.id, `tenants[${ti}].sites[${si}].id`));
  });
  return parsed.data;
}
