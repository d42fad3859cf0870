/**
 * Who a pid is. A pid file outlives its process, and the kernel hands the number to the next process that starts:
 * before acting on a recorded pid, check that it is still the same process (its start time since boot, in clock
 * ticks, and its command line), not whatever runs under that number now.
 */
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  pid: number;
  /** /proc/<pid>/stat field 22: start time after boot, clock ticks. Unique per boot for one pid. */
  startTicks: number;
  /** argv joined with spaces. */
  cmdline: string;
}

/**
 * The fields of /proc/<pid>/stat from field 3 (state) on: index `i` is field `i + 3`. The command name before them
 * may hold spaces and parentheses, so they start after its last ')'. Throws when there is no such process.
 */
export function procStatFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The identity of a running process, or undefined when it is gone or /proc is not there (not Linux). */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  try {
    // Field 22: start time.
    const startTicks = Number(procStatFields(pid)[19]);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return Number.isFinite(startTicks) ? { pid, startTicks, cmdline } : undefined;
  } catch {
    return undefined;
  }
}

/** True only when `recorded` still names the same running process. Unknown identity is never "the same". */
export function isSameProcess(recorded: ProcessIdentity | undefined): boolean {
  if (!recorded) return false;
  const now = processIdentity(recorded.pid);
  return now !== undefined && now.startTicks === recorded.startTicks && now.cmdline === recorded.cmdline;
}
