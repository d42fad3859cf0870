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

/** The identity of a running process, or undefined when it is gone or /proc is not there (not Linux). */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after its last ')'. Field 22 is index 19 there.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]);
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
