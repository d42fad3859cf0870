/**
 * `--repeat N`: every conversation asked N times, each repeat its own row and its own session. The expansion is done
 * when the plan is built, so the workflows run the repeats as ordinary conversations (same commands, no patch) and
 * the results store, resume and reports key them by their own row id.
 *
 * Repeat 1 keeps the dataset's row id (and conversation, and session id): a run with repeats still pairs with an
 * earlier run without them, resume finds the rows it knows, and labels stay keyed the same. Repeat r ≥ 2 is
 * `<id>#r<r>` in conversation `<conversation>#r<r>` and never takes the dataset's `session_id`, so it opens a fresh
 * session: a repeat must not see the earlier repeats' turns.
 */
import type { DatasetRow, WorkUnit } from '../domain/dataset';

/** Most repeats of a run: beyond this the cost grows while the interval narrows by less than a point. */
export const MAX_REPEAT = 20;

/** How a repeat's id ends; a dataset id ending so is refused with `--repeat`, it could collide. */
export const REPEAT_SUFFIX = /#r\d+$/u;

/** The row id of repeat `r` (1-based) of row `id`. */
export function repeatRowId(id: string, r: number): string {
  return r === 1 ? id : `${id}#r${r}`;
}

/** The dataset row a result belongs to, whether or not the run repeats. */
export function baseIdOf(row: { id: string; baseId?: string }): string {
  return row.baseId ?? row.id;
}

/** Repeat `r` of a unit; with `n` = 1 the unit as it is (runs without repeats keep their exact shape). */
export function repeatUnit(unit: WorkUnit, r: number, n: number): WorkUnit {
  if (n === 1) return unit;
  const suffix = r === 1 ? '' : `#r${r}`;
  return {
    key: `${unit.key}${suffix}`,
    rows: unit.rows.map((row) => repeatRow(row, r, suffix)),
  };
}

function repeatRow(row: DatasetRow, r: number, suffix: string): DatasetRow {
  const repeated: DatasetRow = { ...row, id: repeatRowId(row.id, r), baseId: row.id, repeat: r };
  if (r === 1) return repeated;
  const { session_id: _ownSession, ...fresh } = repeated;
  return { ...fresh, ...(row.conversation !== undefined && { conversation: `${row.conversation}${suffix}` }) };
}
