/** Checks shared by both store back ends before a label is written. */
import { LabelVerdict, type Label } from '../domain/label';

const verdicts = new Set<string>(Object.values(LabelVerdict));

/** Throws a field-qualified error when a label cannot be stored (it would break lookups by key). */
export function assertValidLabel(label: Label, position: number): void {
  const where = `labels batch item ${position}`;
  if (typeof label.key !== 'string' || label.key === '') throw new TypeError(`${where}: \`key\` must be a non-empty string`);
  const at = `${where} (key ${label.key})`;
  for (const field of ['siteId', 'question', 'answer', 'at'] as const) {
    if (typeof label[field] !== 'string') throw new TypeError(`${at}: \`${field}\` must be a string`);
  }
  if (label.siteId === '') throw new TypeError(`${at}: \`siteId\` must be a non-empty string`);
  if (!Array.isArray(label.references) || !label.references.every((r) => typeof r === 'string')) {
    throw new TypeError(`${at}: \`references\` must be an array of strings`);
  }
  if (!verdicts.has(label.verdict)) throw new TypeError(`${at}: \`verdict\` must be one of ${[...verdicts].join(', ')}`);
  for (const field of ['rubric', 'note', 'by', 'source'] as const) {
    if (label[field] !== undefined && typeof label[field] !== 'string') throw new TypeError(`${at}: \`${field}\` must be a string when given`);
  }
}

/** Within one batch the last label of a key wins, as it does across batches. */
export function latestByKey(labels: readonly Label[]): Label[] {
  return [...new Map(labels.map((label) => [label.key, label])).values()];
}

/** Bytewise order of keys, the order `readLabels` streams in (PostgreSQL's COLLATE "C"). */
export function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
