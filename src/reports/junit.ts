import { basename } from 'node:path';
import { baseIdOf } from '../datasets/repeat';
import { describeGateSettings, verdictLabel } from './gate';
import { provenanceProperties } from './provenanceRender';
import { escapeXml, escapeXmlAttr, reviewedLine, truncate } from './escape';
import { GateVerdict, Outcome, type RowResult, type RunSummary } from './types';

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

/**
 * JUnit XML, streamed one test case per row: a single `<testsuite>` (inside `<testsuites>`) named
 * after the dataset; classname = the row's first tag, else the dataset file name. `failed` rows carry a
 * `<failure>` with the failing assertions (type `regression` for rows that passed in the baseline),
 * `error`/`timed_out` rows an `<error>` with the API error, `skipped` and `uncertain` rows `<skipped/>` (an uncertain
 * one with why: it needs a person, it is neither a pass nor a failure); answered (ungraded)
 * rows pass. The answer goes to `<system-out>`. Evaluation runs get one more test case, the quality gate itself
 * (classname `sitechat.gate`): a `<failure>` listing every reason when it failed, an `<error>` when the run was
 * cancelled, so CI never shows a cancelled or failed run green.
 */
export async function* renderJUnit(
  summary: RunSummary,
  results: AsyncIterable<RowResult>,
  options: JUnitOptions = {},
): AsyncGenerator<string> {
  const { maxText = 2000 } = options;
  const suite = basename(summary.dataset);
  const gate = summary.gate;
  const counts = {
    tests: summary.total + (gate ? 1 : 0),
    failures: summary.failed + (gate?.verdict === GateVerdict.failed ? 1 : 0),
    errors: summary.error + summary.timedOut + (gate?.verdict === GateVerdict.cancelled ? 1 : 0),
    // Uncertain rows await a person's review: neither passed nor failed, so JUnit's `skipped`.
    skipped: summary.skipped + (summary.uncertain ?? 0),
    time: seconds(summary.durationMs),
  };
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites${attrs({ name: 'sitechat-runner', ...counts })}>\n`;
  yield `  <testsuite${attrs({ name: suite, ...counts, timestamp: summary.startedAt })}>\n`;
  yield '    <properties>\n';
  const properties = {
    runId: summary.runId, workflowId: summary.workflowId, siteId: summary.siteId, model: summary.model ?? undefined,
    datasetSha256: summary.datasetSha256, gateVerdict: gate?.verdict, baseline: summary.baseline?.runId, cancelled: String(summary.cancelled),
    reviewed: summary.reviewed ? reviewedLine(summary.reviewed) : undefined,
    ...provenanceProperties(summary.provenance),
  };
  for (const [name, value] of Object.entries(properties)) {
    if (value !== undefined) yield `      <property${attrs({ name, value })}/>\n`;
  }
  yield '    </properties>\n';
  if (gate) yield gateCase(summary, maxText);
  const regressed = new Set(summary.baseline?.regressed);
  const baselineRunId = summary.baseline?.runId ?? '';
  for await (const row of results) yield testCase(row, suite, maxText, regressed.has(baseIdOf(row)) ? baselineRunId : undefined);
  yield '  </testsuite>\n</testsuites>\n';
}

function gateCase(summary: RunSummary, maxText: number): string {
  const gate = summary.gate;
  if (!gate) return '';
  const head = `    <testcase${attrs({ classname: GATE_CLASSNAME, name: `quality gate: ${verdictLabel(gate.verdict)}` })}>\n`;
  const detail = [...gate.reasons, ...gate.warnings.map((w) => `warning: ${w}`), ...(summary.gateSettings ? describeGateSettings(summary.gateSettings) : [])].join('\n');
  const message = oneLine(gate.reasons.join('; ') || verdictLabel(gate.verdict), 500);
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
      const failing = (row.assertions ?? []).filter((a) => !a.pass);
      const reasons = failing.map((a) => `${a.type}: ${a.reason}${a.rule ? ` (rule: ${a.rule})` : ''}`);
      const first = failing[0] ? `${failing[0].type}: ${failing[0].reason}` : 'assertions failed';
      const message = regressedFrom === undefined ? first : `regressed (passed in ${regressedFrom}): ${first}`;
      const type = regressedFrom === undefined ? (failing[0]?.type ?? 'assertion') : 'regression';
      body.push(`<failure${attrs({ message: oneLine(message, 300), type })}>${escapeXml(truncate(reasons.join('\n'), maxText))}</failure>`);
      break;
    }
    case Outcome.error:
    case Outcome.timedOut: {
      const type = row.errorType ?? (row.outcome === Outcome.timedOut ? 'TimedOut' : 'Error');
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
  if (row.answer !== undefined) body.push(`<system-out>${escapeXml(truncate(row.answer, maxText))}</system-out>`);
  if (body.length === 0) return `${head}/>\n`;
  return `${head}>\n${body.map((line) => `      ${line}\n`).join('')}    </testcase>\n`;
}
