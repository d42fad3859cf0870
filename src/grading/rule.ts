/**
 * The rule an assertion checks, in words a reviewer can verify (`AssertionResult.rule`): the phrases, pattern,
 * reference and threshold, not only whether it passed. Pure: runs in the workflow with the graders.
 */
import type { RowForGrading } from '../domain/grade';
import { parseReferences } from './references';
import type { AssertionSpec, GradingThresholds } from '../domain/grade';

/** Characters of a phrase list or reference quoted in a rule. */
const MAX_RULE_TEXT = 300;

function clip(text: string): string {
  return text.length > MAX_RULE_TEXT ? `${text.slice(0, MAX_RULE_TEXT)}…` : text;
}

function quoted(values: readonly string[]): string {
  return clip(values.map((v) => JSON.stringify(v)).join(', '));
}

/** `expected` holds `|`-separated references. */
function references(text: string): string {
  const refs = parseReferences(text);
  return refs.length === 0 ? 'nothing (no reference in `expected`)' : clip(refs.map((r) => JSON.stringify(r)).join(' or '));
}

export function describeRule(spec: AssertionSpec, row: RowForGrading, thresholds: Required<GradingThresholds>): string {
  switch (spec.type) {
    case 'equals': return `answer equals ${quoted([spec.value])}`;
    case 'contains': return `answer contains ${quoted([spec.value])}`;
    case 'icontains': return `answer contains ${quoted([spec.value])} (ignoring case)`;
    case 'contains-all': return `must include all of ${quoted(spec.values)} (ignoring case)`;
    case 'contains-any': return `must include at least one of ${quoted(spec.values)} (ignoring case)`;
    case 'not-contains': return `must not include any of ${quoted(spec.values)} (ignoring case)`;
    case 'regex': return `answer matches /${clip(spec.pattern)}/${spec.flags ?? ''}`;
    case 'min-confidence': return `confidence score ≥ ${spec.threshold}`;
    case 'max-latency': return `latency ≤ ${spec.ms} ms`;
    case 'llm-rubric': return `LLM judge: meets the rubric ${quoted([spec.value ?? row.rubric ?? '(none)'])}`;
    case 'llm-correctness': return `LLM judge: consistent with expected ${row.expected === undefined ? 'nothing (no `expected`)' : references(row.expected)}`;
    case 'custom': return `custom grader ${spec.module}${spec.threshold === undefined ? '' : ` (score ≥ ${spec.threshold})`}`;
    case 'reference': {
      const threshold = spec.threshold ?? thresholds.reference;
      const reference = spec.value ?? row.expected;
      const against = reference === undefined ? 'nothing (no `expected`)' : references(reference);
      return `gives the answer of ${against} (content words ≥ ${threshold} for longer references)`;
    }
    case 'f1':
    case 'rouge-l':
    case 'levenshtein': {
      const name = spec.type === 'f1' ? 'token F1' : spec.type === 'rouge-l' ? 'ROUGE-L' : 'Levenshtein similarity';
      const threshold = spec.threshold ?? thresholds[spec.type === 'f1' ? 'f1' : spec.type === 'rouge-l' ? 'rougeL' : 'levenshtein'];
      const reference = spec.value ?? row.expected;
      const against = reference === undefined ? 'nothing (no `expected`)' : spec.value === undefined ? `expected ${references(reference)}` : `value ${quoted([reference])}`;
      return `${name} ≥ ${threshold} against ${against}`;
    }
  }
}
