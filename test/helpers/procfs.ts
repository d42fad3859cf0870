/** What Linux's /proc says about processes a test started (their children, environment, command line). */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Direct children of `pid`, from /proc/<n>/stat (the parent pid is the field after the command's closing paren). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((n) => /^\d+$/u.test(n)).flatMap((n) => (parentOf(Number(n)) === pid ? [Number(n)] : []));
}

/** The parent pid of `pid` (its /proc stat's fourth field), or -1 once it is gone. */
export function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1; // gone meanwhile
  }
}

/** Every process below `pid`: its children, theirs, and so on. */
export function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** A NUL-separated /proc file (`environ`, `cmdline`) as its entries. */
export function nulSeparated(file: string): string[] {
  return readFileSync(file, 'utf8').split('\0').filter(Boolean);
}

export interface RecordingCli {
  /** For TEMPORAL_CLI_PATH. */
  path: string;
  /** The environment of each start so far, in no particular order. */
  saved(): string[][];
  /** Each start so far: the pid of the process that started it, and its arguments. */
  starts(): { ppid: number; args: string[] }[];
}

/**
 * A stand-in Temporal CLI for TEMPORAL_CLI_PATH: each start saves its own /proc/$$/environ, its parent's pid and its
 * arguments in `dir`, then execs the real CLI (same pid, same environment), so even a child that lives for a moment
 * shows what it was given and who started it.
 */
export function recordingCli(dir: string, name: string, realCli: string): RecordingCli {
  const path = join(dir, `temporal-${name}`);
  const prefix = `${name}.environ.`;
  const startPrefix = `${name}.start.`;
  writeFileSync(path, `#!/bin/sh\ncat /proc/$$/environ > '${join(dir, prefix)}'$$\nprintf '%s\\0' "$PPID" "$@" > '${join(dir, startPrefix)}'$$\nexec '${realCli}' "$@"\n`);
  chmodSync(path, 0o755);
  const files = (p: string): string[] => readdirSync(dir).filter((f) => f.startsWith(p)).map((f) => join(dir, f));
  return {
    path,
    saved: () => files(prefix).map((f) => nulSeparated(f)),
    starts: () => files(startPrefix).map((f) => nulSeparated(f)).map(([ppid, ...args]) => ({ ppid: Number(ppid), args })),
  };
}
