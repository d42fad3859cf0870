import { describe, expect, it } from 'vitest';
import { buildProgram, unknownCommandFirst } from '../../../src/cli/main';

describe('unknownCommandFirst: --help does not hide an unknown command', () => {
  const program = buildProgram();
  const args = (line: string): string[] => unknownCommandFirst(program, line.split(' ').filter(Boolean));

  it('drops the help flags when a command on the path is unknown, at any level', () => {
    expect(args('nosuch --help')).toEqual(['nosuch']);
    expect(args('-h nosuch')).toEqual(['nosuch']);
    expect(args('schedule nosuch --help')).toEqual(['schedule', 'nosuch']);
    expect(args('schedule create nosuch -h')).toEqual(['schedule', 'create', 'nosuch']);
  });

  it('reads `help nosuch` as `nosuch`', () => {
    expect(args('help nosuch')).toEqual(['nosuch']);
    expect(args('schedule help nosuch')).toEqual(['schedule', 'nosuch']);
  });

  it('leaves known commands, help topics and plain help alone', () => {
    for (const line of ['--help', 'run --help', 'run q.csv --out reports', 'schedule create nightly --help', 'help run', 'help', 'schedule help create', '--version', '']) {
      expect(args(line), line).toEqual(line.split(' ').filter(Boolean));
    }
  });
});
