import type { RunConfig } from '../../../config';
import type { RunFlags } from './flags';
import { parseRepeat } from './runOptions';
import { plural } from '../../../shared/plural';

/** The run's `--repeat` (flag over config), already validated by the flag checks. */
export function repeatOf(flags: Pick<RunFlags, 'repeat'>, config: Pick<RunConfig, 'repeat'> | undefined): number {
  return flags.repeat !== undefined ? parseRepeat(flags.repeat) : (config?.repeat ?? 1);
}

/**
 * What the run will ask, as printed before it starts. With repeats every question goes out N times, so the run
 * sends N × the questions and, at the same concurrency, takes about N × the time of a run without them.
 */
export function planLine(scan: { rows: number; conversations: number }, repeat: number): string {
  const plain = `${plural(scan.rows, 'row')}, ${plural(scan.conversations, 'conversation')}`;
  if (repeat <= 1) return plain;
  return `${plain}, each asked ${repeat} times in fresh sessions: ${scan.rows * repeat} questions, about ${repeat} × the time of one pass`;
}
