/**
 * `--confirm K`: before the gate fails on rows that regressed, those rows are asked K more times in fresh sessions.
 * The confirming answers are rows of their own, `<row id>#c<k>` with `baseId` and `confirm` = k, in a page added
 * after the plan's own, so the chunk workflow asks them like any other conversation.
 */
import { baseIdOf } from './repeat';
import type { DatasetRow, WorkUnit } from '../domain/dataset';

/** Most confirming answers per row: a regression that 5 fresh answers do not settle is a flaky row, not a finding. */
export const MAX_CONFIRM = 5;

/**
 * The units to ask again: every conversation holding a regressed row (by dataset row id), its first repeat only, K
 * times. A regressed turn of a conversation is asked with its earlier turns, as it was.
 */
export function confirmationUnits(plan: Iterable<WorkUnit>, regressed: ReadonlySet<string>, k: number): WorkUnit[] {
  const units: WorkUnit[] = [];
  for (const unit of plan) {
    if (!unit.rows.some((row) => (row.repeat ?? 1) === 1 && regressed.has(baseIdOf(row)))) continue;
    for (let c = 1; c <= k; c++) units.push({ key: `${unit.key}#c${c}`, rows: unit.rows.map((row) => confirmRow(row, c)) });
  }
  return units;
}

function confirmRow(row: DatasetRow, c: number): DatasetRow {
  const base = baseIdOf(row);
  const { session_id: _ownSession, repeat: _repeat, ...fresh } = row;
  return {
    ...fresh,
    id: `${base}#c${c}`,
    baseId: base,
    confirm: c,
    ...(row.conversation !== undefined && { conversation: `${row.conversation.replace(/#r\d+$/u, '')}#c${c}` }),
  };
}
