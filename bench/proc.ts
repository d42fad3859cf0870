/**
 * CPU time and memory of a process from /proc (Linux): the bench runs the worker, the CLI and the Temporal dev
 * server as child processes so that each one's cost is its own.
 */
import { readFileSync } from 'node:fs';
import { procStatFields } from '../src/temporal/processIdentity';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ); 100 on every mainstream Linux. */
const USER_HZ = 100;

export interface ProcSample {
  /** user + system CPU time, ms */
  cpuMs: number;
  rssBytes: number;
  /** VmHWM: peak resident set size since the process started */
  peakRssBytes: number;
}

export function sampleProc(pid: number): ProcSample | undefined {
  try {
    // Fields 14 and 15: user and system time.
    const fields = procStatFields(pid);
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { cpuMs, rssBytes: kb('VmRSS'), peakRssBytes: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/**
 * Samples a process every `intervalMs` until stopped or gone, keeping the last sample seen (VmHWM and CPU only grow,
 * so the last sample before exit holds the peak and the total).
 */
export class ProcWatcher {
  private first: ProcSample | undefined;
  private last: ProcSample | undefined;
  private maxRss = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly pid: number, intervalMs = 250) {
    this.tick();
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    const s = sampleProc(this.pid);
    if (!s) return;
    this.first ??= s;
    this.last = s;
    this.maxRss = Math.max(this.maxRss, s.rssBytes);
  }

  /** Resets the CPU baseline (e.g. after start-up, so a scenario measures only its run). */
  mark(): void {
    this.tick();
    this.first = this.last;
  }

  stop(): { cpuMs: number; peakRssBytes: number; sampledPeakRssBytes: number; startRssBytes: number } {
    this.tick();
    clearInterval(this.timer);
    return {
      cpuMs: (this.last?.cpuMs ?? 0) - (this.first?.cpuMs ?? 0),
      peakRssBytes: this.last?.peakRssBytes ?? 0,
      sampledPeakRssBytes: this.maxRss,
      startRssBytes: this.first?.rssBytes ?? 0,
    };
  }
}

export const mib = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
