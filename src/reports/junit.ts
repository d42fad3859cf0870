import { basename } from 'node:path';
import { escapeXml, escapeXmlAttr, truncate } from './text';
import { Outcome, type RowResult, type RunSummary } from './types';

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

/**
 * JUnit XML, streamed one test case per row: a single `<testsuite>` (inside `<testsuites>`) named
 * after the dataset; classname = the row's first tag, else the dataset file name. `failed` rows carry a
 * `<failure>` with the failing assertions, `error`/`timed_out` rows an `<error>` with the API error,
 * `skipped` rows `<skipped/>`; answered (ungraded) rows pass. The answer goes to `<system-out>`.
 */
export async function* renderJUnit(
  summary: RunSummary,
  results: AsyncIterable<RowResult>,
  options: JUnitOptions = {},
): AsyncGenerator<string> {
  const { maxText = 2000 } = options;
  const suite = basename(summary.dataset);
  const counts = {
    tests: summary.total,
    failures: summary.failed,
    errors: summary.error + summary.timedOut,
    skipped: summary.skipped,
    time: seconds(summary.durationMs),
  };
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites${attrs({ name: 'sitechat-runner', ...counts })}>\n`;
  yield `  <testsuite${attrs({ name: suite, ...counts, timestamp: summary.startedAt })}>\n`;
  yield '    <properties>\n';
  const properties = { runId: summary.runId, workflowId: summary.workflowId, siteId: summary.siteId, model: summary.model ?? undefined, datasetSha256: summary.datasetSha256 };
  for (const [name, value] of Object.entries(properties)) {
    if (value !== undefined) yield `      <property${attrs({ name, value })}/>\n`;
  }
  yield '    </properties>\n';
  for await (const row of results) yield testCase(row, suite, maxText);
  yield '  </testsuite>\n</testsuites>\n';
}

function testCase(row: RowResult, suite: string, maxText: number): string {
  const head = `    <testcase${attrs({
    classname: row.tags?.[0] ?? suite,
    name: `${row.id}: ${oneLine(row.question, 120)}`,
    time: seconds(row.latencyMs),
  })}`;
  const body: string[] = [];
  switch (row.outcome) {
    case Outcome.failed: {
      const failing = (row.assertions ?? []).filter((a) => !a.pass);
      const reasons = failing.map((a) => `${a.type}: ${a.reason}`);
      const message = reasons[0] ?? 'assertions failed';
      body.push(`<failure${attrs({ message: oneLine(message, 300), type: failing[0]?.type ?? 'assertion' })}>${escapeXml(truncate(reasons.join('\n'), maxText))}</failure>`);
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
    default:
      break;
  }
  if (row.answer !== undefined) body.push(`<system-out>${escapeXml(truncate(row.answer, maxText))}</system-out>`);
  if (body.length === 0) return `${head}/>\n`;
  return `${head}>\n${body.map((line) => `      ${line}\n`).join('')}    </testcase>\n`;
}
