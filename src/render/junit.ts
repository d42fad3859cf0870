import { basename } from 'node:path';
import { baseIdOf } from '../datasets/repeat';
import { causeLine, errorTypeOf } from '../analysis/cause';
import { describeGateSettings, verdictLabel } from '../analysis/gate';
import { provenanceProperties } from './provenanceRender';
import { escapeXml, escapeXmlAttr, reviewedLine, truncate } from './escape';
import { gradersLine, gradersView, labelFailureMessage, personLine, personView, type PersonView } from './labelView';
import { DecidedBy, GateVerdict, Outcome, type RowResult, type RunSummary } from '../domain/results';

export interface JUnitOptions {
  /** Characters of an answer or reason text kept per test case. @default 2000 */
  maxText?: number;
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXmlAttr(String(value))}"`)
    .join('');
}

function seconds(ms: number | null | undefined): string | undefined {
  return typeof ms === 'number' && Number.isFinite(ms) ? (ms / 1000).toFixed(3) : undefined;
}

function oneLine(text: string, max: number): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), max);
}

/** Classname of the gate's own test case. */
export const GATE_CLASSNAME = 'sitechat.gate';

/** The rows of a run, read again for each pass (a store's `read`), or once (an iterable). */
export type JUnitRows = AsyncIterable<RowResult> | (() => AsyncIterable<RowResult>);

/**
 * JUnit XML, streamed one test case per dataset row: a single `<testsuite>` (inside `<testsuites>`) named
 * after the dataset; classname = the row's first tag, else the dataset file name. `failed` rows carry a
 * `<failure>` with the failing assertions (type `regression` for rows that passed in the baseline), or, for a row a
 * person's label failed, "failed by a label: <note> (by <who>, <when>)" (type `label`); every row a label settled has
 * test case `<properties>` naming the label and what the graders said, and says both in `<system-out>` above the answer;
 * `error`/`timed_out` rows an `<error>` with the API error, `skipped` and `uncertain` rows `<skipped/>` (an uncertain
 * one with why: it needs a person, it is neither a pass nor a failure); answered (ungraded)
 * rows pass. The answer goes to `<system-out>`. Evaluation runs get one more test case, the quality gate itself
 * (classname `sitechat.gate`): a `<failure>` listing every reason when it failed, an `<error>` when the run was
 * cancelled, so CI never shows a cancelled or failed run green.
 *
 * With `--repeat N` a row is still one test case (CI tools count, name and track test cases across builds: N test
 * cases of one name would multiply the count by N and collide in their history): it fails when most of its graded
 * answers failed (as `--confirm` counts a reproduction), its message says k of N, each answer is in `<system-out>`,
 * and a passing row's failed answers are `<flakyFailure>` elements (Maven Surefire's flaky test, which Jenkins
 * reads and other viewers skip). Confirming answers (`--confirm`) are evidence about their row, not test cases.
 * Rows come from the store in dataset order, a row's repeats and confirming answers next to it, so only one row's
 * answers are held at a time; with repeats the rows are read twice (counts first), so pass a function.
 */
export async function* renderJUnit(
  summary: RunSummary,
  rows: JUnitRows,
  options: JUnitOptions = {},
): AsyncGenerator<string> {
  const { maxText = 2000 } = options;
  const suite = basename(summary.dataset);
  const gate = summary.gate;
  const read = (): AsyncIterable<RowResult> => (typeof rows === 'function' ? rows() : rows);
  const repeated = summary.repeats !== undefined;
  const regressed = new Set(summary.baseline?.regressed);
  const baselineRunId = summary.baseline?.runId ?? '';
  const cases = repeated && typeof rows === 'function' ? await countCases(read()) : undefined;
  const counts = {
    tests: (cases?.tests ?? summary.total) + (gate ? 1 : 0),
    failures: (cases?.failed ?? summary.failed) + (gate?.verdict === GateVerdict.failed ? 1 : 0),
    errors: (cases?.errors ?? summary.error + summary.timedOut) + (gate?.verdict === GateVerdict.cancelled ? 1 : 0),
    // Uncertain rows await a person's review: neither passed nor failed, so JUnit's `skipped`.
    skipped: cases?.skipped ?? summary.skipped + (summary.uncertain ?? 0),
    time: seconds(summary.durationMs),
  };
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites${attrs({ name: 'sitechat-runner', ...counts })}>\n`;
  yield `  <testsuite${attrs({ name: suite, ...counts, timestamp: summary.startedAt })}>\n`;
  yield '    <properties>\n';
  const properties = {
    runId: summary.runId, workflowId: summary.workflowId, siteId: summary.siteId, model: summary.model ?? undefined,
    datasetSha256: summary.datasetSha256, gateVerdict: gate?.verdict, baseline: summary.baseline?.runId, cancelled: String(summary.cancelled),
    ...(summary.repeats && { repeat: String(summary.repeats.n) }),
    reviewed: summary.reviewed ? reviewedLine(summary.reviewed) : undefined,
    cause: summary.cause ? causeLine(summary.cause) : undefined,
    ...provenanceProperties(summary.provenance),
  };
  for (const [name, value] of Object.entries(properties)) {
    if (value !== undefined) yield `      <property${attrs({ name, value })}/>\n`;
  }
  yield '    </properties>\n';
  if (gate) yield gateCase(summary, maxText);
  for await (const group of byDatasetRow(read())) {
    const from = regressed.has(group.id) ? baselineRunId : undefined;
    const [only] = group.answers;
    if (only && group.answers.length === 1 && !repeated) yield testCase(only, suite, maxText, from);
    else if (group.answers.length > 0) yield repeatedCase(group.answers, suite, maxText, from);
  }
  yield '  </testsuite>\n</testsuites>\n';
}

/** One dataset row's answers (its repeats), without its confirming answers. */
interface RowGroup {
  id: string;
  answers: RowResult[];
}

/** Consecutive results of one dataset row, grouped. */
async function* byDatasetRow(results: AsyncIterable<RowResult>): AsyncGenerator<RowGroup> {
  let group: RowGroup | undefined;
  for await (const row of results) {
    const id = baseIdOf(row);
    if (group && group.id !== id) {
      yield group;
      group = undefined;
    }
    group ??= { id, answers: [] };
    if (row.confirm === undefined) group.answers.push(row);
  }
  if (group) yield group;
}

type CaseKind = 'passed' | 'failed' | 'error' | 'skipped';

/** A repeated row's test case: failed when most graded answers failed; without graded answers, its first answer's. */
function caseKind(answers: readonly RowResult[]): CaseKind {
  const passed = answers.filter((a) => a.outcome === Outcome.passed).length;
  const failed = answers.filter((a) => a.outcome === Outcome.failed).length;
  if (passed + failed > 0) return failed * 2 > passed + failed ? 'failed' : 'passed';
  const first = answers[0]?.outcome;
  if (first === Outcome.error || first === Outcome.timedOut) return 'error';
  if (first === Outcome.skipped || first === Outcome.uncertain) return 'skipped';
  return 'passed';
}

async function countCases(results: AsyncIterable<RowResult>): Promise<{ tests: number; failed: number; errors: number; skipped: number }> {
  const n = { tests: 0, failed: 0, errors: 0, skipped: 0 };
  for await (const group of byDatasetRow(results)) {
    if (group.answers.length === 0) continue;
    n.tests++;
    const kind = caseKind(group.answers);
    if (kind === 'failed') n.failed++;
    if (kind === 'error') n.errors++;
    if (kind === 'skipped') n.skipped++;
  }
  return n;
}

/** A row asked N times: one test case, k of N in its message, every answer in `<system-out>`. */
function repeatedCase(answers: readonly RowResult[], suite: string, maxText: number, regressedFrom?: string): string {
  const first = answers[0] as RowResult;
  const kind = caseKind(answers);
  const passed = answers.filter((a) => a.outcome === Outcome.passed).length;
  const graded = passed + answers.filter((a) => a.outcome === Outcome.failed).length;
  const kOfN = `${passed} of ${graded} graded answers passed (${answers.length} asked)`;
  const time = answers.reduce((sum, a) => sum + (typeof a.latencyMs === 'number' ? a.latencyMs : 0), 0);
  const head = `    <testcase${attrs({ classname: first.tags?.[0] ?? suite, name: `${baseIdOf(first)}: ${oneLine(first.question, 120)}`, time: seconds(time) })}`;
  const failures = answers.filter((a) => a.outcome === Outcome.failed).map((a) => ({ a, ...failureOf(a) }));
  const body: string[] = [];
  if (kind === 'failed') {
    const f = failures[0];
    const message = `${regressedFrom === undefined ? '' : `regressed (passed in ${regressedFrom}): `}${kOfN}; ${f?.first ?? 'assertions failed'}`;
    const text = failures.map((x) => `${x.a.id}: ${x.reasons.join('; ')}`).join('\n');
    body.push(`<failure${attrs({ message: oneLine(message, 300), type: regressedFrom === undefined ? (f?.type ?? 'assertion') : 'regression' })}>${escapeXml(truncate(text, maxText))}</failure>`);
  } else if (kind === 'error') {
    const message = first.error ?? (first.outcome === Outcome.timedOut ? 'no answer before the time-out' : 'error');
    body.push(`<error${attrs({ message: oneLine(`no answer graded: ${message}`, 300), type: errorTypeOf(first) ?? 'Error' })}>${escapeXml(truncate(message, maxText))}</error>`);
  } else if (kind === 'skipped') {
    body.push(`<skipped${attrs({ message: oneLine(first.outcome === Outcome.uncertain ? `uncertain, needs review: ${first.decision?.reason ?? 'the graders could not decide'}` : (first.error ?? 'skipped'), 300) })}/>`);
  } else {
    // A passing row's failed answers: Surefire's flaky test (passed on some runs, failed on others).
    for (const x of failures) body.push(`<flakyFailure${attrs({ message: oneLine(`${x.a.id}: ${x.first} (${kOfN})`, 300), type: x.type })}/>`);
  }
  const out = answers.map((a) => `[${a.id}] ${a.outcome}: ${a.answer ?? a.error ?? '(no answer)'}`).join('\n');
  body.push(`<system-out>${escapeXml(truncate(out, maxText))}</system-out>`);
  return `${head}>\n${body.map((line) => `      ${line}\n`).join('')}    </testcase>\n`;
}

function gateCase(summary: RunSummary, maxText: number): string {
  const gate = summary.gate;
  if (!gate) return '';
  const head = `    <testcase${attrs({ classname: GATE_CLASSNAME, name: `quality gate: ${verdictLabel(gate.verdict)}` })}>\n`;
  // The cause most errors share leads: a CI page shows the message first, and often only it.
  const cause = summary.cause ? [`cause: ${causeLine(summary.cause)}`] : [];
  const detail = [...cause, ...gate.reasons, ...gate.warnings.map((w) => `warning: ${w}`), ...(summary.gateSettings ? describeGateSettings(summary.gateSettings) : [])].join('\n');
  const message = oneLine([...cause, ...gate.reasons].join('; ') || verdictLabel(gate.verdict), 500);
  let body = '';
  if (gate.verdict === GateVerdict.failed) body = `<failure${attrs({ message, type: 'QualityGateFailed' })}>${escapeXml(truncate(detail, maxText * 4))}</failure>`;
  else if (gate.verdict === GateVerdict.cancelled) body = `<error${attrs({ message, type: 'RunCancelled' })}>${escapeXml(truncate(detail, maxText * 4))}</error>`;
  else body = `<system-out>${escapeXml(truncate(detail, maxText * 4))}</system-out>`;
  return `${head}      ${body}\n    </testcase>\n`;
}

function testCase(row: RowResult, suite: string, maxText: number, regressedFrom?: string): string {
  const head = `    <testcase${attrs({
    classname: row.tags?.[0] ?? suite,
    name: `${row.id}: ${oneLine(row.question, 120)}`,
    time: seconds(row.latencyMs),
  })}`;
  const body: string[] = [];
  switch (row.outcome) {
    case Outcome.failed: {
      const failure = failureOf(row);
      const message = regressedFrom === undefined ? failure.first : `regressed (passed in ${regressedFrom}): ${failure.first}`;
      const type = regressedFrom === undefined ? failure.type : 'regression';
      body.push(`<failure${attrs({ message: oneLine(message, 300), type })}>${escapeXml(truncate(failure.reasons.join('\n'), maxText))}</failure>`);
      break;
    }
    case Outcome.error:
    case Outcome.timedOut: {
      const type = errorTypeOf(row) ?? 'Error';
      const message = row.error ?? (row.outcome === Outcome.timedOut ? 'no answer before the time-out' : 'error');
      body.push(`<error${attrs({ message: oneLine(message, 300), type })}>${escapeXml(truncate(message, maxText))}</error>`);
      break;
    }
    case Outcome.skipped:
      body.push(`<skipped${attrs({ message: row.error === undefined ? undefined : oneLine(row.error, 300) })}/>`);
      break;
    case Outcome.uncertain:
      body.push(`<skipped${attrs({ message: oneLine(`uncertain, needs review: ${row.decision?.reason ?? 'the graders could not decide'}`, 300) })}/>`);
      break;
    default:
      break;
  }
  const person = personView(row);
  if (person) body.unshift(...personProperties(row, person));
  const out = [...(person ? [personLine(person), gradersLine(gradersView(row)), ''] : []), ...(row.answer === undefined ? [] : [row.answer])].join('\n');
  if (out !== '') body.push(`<system-out>${escapeXml(truncate(out, maxText))}</system-out>`);
  if (body.length === 0) return `${head}/>\n`;
  return `${head}>\n${body.map((line) => `      ${line}\n`).join('')}    </testcase>\n`;
}

/** Why a failed answer failed: the person's label that failed it, else its failing assertions. */
function failureOf(row: RowResult): { first: string; type: string; reasons: string[] } {
  const failing = (row.assertions ?? []).filter((x) => !x.pass);
  const reasons = failing.map((x) => `${x.type}: ${x.reason}${x.rule ? ` (rule: ${x.rule})` : ''}`);
  const person = personView(row);
  if (person) return { first: labelFailureMessage(person), type: 'label', reasons: [personLine(person), gradersLine(gradersView(row)), ...reasons] };
  return { first: failing[0] ? `${failing[0].type}: ${failing[0].reason}` : 'assertions failed', type: failing[0]?.type ?? 'assertion', reasons };
}

/**
 * A labelled row's test case properties (as pytest's `record_property` writes them): that a person decided it, who,
 * when, the note, and what the graders said. CI viewers that show a case's properties name the label there.
 */
function personProperties(row: RowResult, person: PersonView): string[] {
  const label = row.decision?.label;
  const values = {
    decidedBy: DecidedBy.label, 'label.verdict': person.verdict, 'label.by': label?.by, 'label.at': label?.at, 'label.note': label?.note,
    'label.reason': person.reason, graders: gradersLine(gradersView(row)),
  };
  const items = Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined).map(([name, value]) => `  <property${attrs({ name, value: oneLine(value, 500) })}/>`);
  return ['<properties>', ...items, '</properties>'];
}
