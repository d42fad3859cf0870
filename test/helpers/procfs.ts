/** What Linux's /proc says about processes a test started (their children, environment, command line). */
import { readdirSync, readFileSync } from 'node:fs';

/** Direct children of `pid`, from /proc/<n>/stat (the parent pid is the field after the command's closing paren). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((n) => /^\d+$/u.test(n)).flatMap((n) => {
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(n)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

/** A NUL-separated /proc file (`environ`, `cmdline`) as its entries. */
export function nulSeparated(file: string): string[] {
  return readFileSync(file, 'utf8').split('\0').filter(Boolean);
}
