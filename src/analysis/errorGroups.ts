import { causeKey, causeOfRow, causeText, type ErrorCause } from './cause';
import type { RowResult, RunCause } from '../domain/results';

/** Rows that errored the same way: one line in a report ("66 rows: the API refused the key (…)"), not a card each. */
export interface ErrorGroup {
  cause: ErrorCause;
  /** `causeText` of the cause. */
  text: string;
  rows: number;
  /** The first rows' ids, in the order they came (dataset order), at most `ErrorGroups.IDS`. */
  ids: string[];
}

/**
 * Groups the rows that errored or timed out by cause as they stream by: for the summary's `cause` (the one most of
 * them share), and for the reports' error sections, which show a group of two rows or more as one line and only the
 * rows whose error is their own in full. Memory: a few ids per distinct cause, and at most `MAX_GROUPS` causes (rows
 * of any further cause are counted, and shown one by one).
 */
export class ErrorGroups {
  static readonly IDS = 20;
  private static readonly MAX_GROUPS = 100;
  private readonly groups = new Map<string, ErrorGroup & { example?: string }>();
  private errors = 0;

  add(row: RowResult): void {
    const cause = causeOfRow(row);
    if (!cause) return;
    this.errors += 1;
    const key = causeKey(cause);
    const group = this.groups.get(key);
    if (group) {
      group.rows += 1;
      if (group.ids.length < ErrorGroups.IDS) group.ids.push(row.id);
    } else if (this.groups.size < ErrorGroups.MAX_GROUPS) {
      this.groups.set(key, { cause, text: '', rows: 1, ids: [row.id], ...(row.error !== undefined && { example: row.error.slice(0, 300) }) });
    }
  }

  /** Every group, the most frequent first, with its words. */
  private sorted(): ErrorGroup[] {
    return [...this.groups.values()].sort((x, y) => y.rows - x.rows).map(({ example, ...g }) => ({ ...g, text: causeText(g.cause, example) }));
  }

  /** The cause of more than half of the rows that errored or timed out (`RunSummary.cause`); undefined when none is. */
  main(): RunCause | undefined {
    const [top] = this.sorted();
    if (!top || top.rows * 2 <= this.errors) return undefined;
    const { cause } = top;
    return {
      text: top.text, rows: top.rows, errors: this.errors, type: cause.type,
      ...(cause.status !== undefined && { status: cause.status }), ...(cause.error !== undefined && { error: cause.error }),
    };
  }

  /** Causes of two rows or more, the most frequent first. */
  collapsed(): ErrorGroup[] {
    return this.sorted().filter((g) => g.rows > 1);
  }
}

/** Whether `row` is one of `groups` (and so not shown on its own). */
function inGroup(groups: readonly ErrorGroup[], row: RowResult): boolean {
  const cause = causeOfRow(row);
  if (!cause) return false;
  const key = causeKey(cause);
  return groups.some((g) => causeKey(g.cause) === key);
}

/**
 * What a report's errors section shows besides its groups: the rows kept for it (`shown`, the first of `total`) whose
 * error is their own, and how many rows are neither in a group nor shown.
 */
export function ownErrors(shown: readonly RowResult[], total: number, groups: readonly ErrorGroup[]): { own: RowResult[]; hidden: number } {
  const own = shown.filter((row) => !inGroup(groups, row));
  return { own, hidden: total - groups.reduce((n, g) => n + g.rows, 0) - own.length };
}

/** "66 rows: the API refused the key (…) — q01, q02, … 46 more": a group as one line. */
export function groupLine(g: ErrorGroup): string {
  const more = g.rows > g.ids.length ? ` … ${g.rows - g.ids.length} more` : '';
  return `${g.rows} rows: ${g.text} — ${g.ids.join(', ')}${more}`;
}
