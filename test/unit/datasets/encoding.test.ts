import { describe, expect, it } from 'vitest';
import { controlName, TextCheck, type TextProblem } from '../../../src/datasets/encoding';

/** The problems of `bytes` fed in chunks of `chunk` bytes (1 = every byte on its own: sequences split anywhere). */
function check(bytes: Buffer, chunk = bytes.length || 1): Array<[number, number, string]> {
  const found: TextProblem[] = [];
  const text = new TextCheck((p) => found.push(p));
  for (let i = 0; i < bytes.length; i += chunk) text.push(bytes.subarray(i, i + chunk));
  text.end();
  return found.map((p) => [p.line, p.character, p.message]);
}

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('TextCheck: UTF-8', () => {
  it('accepts UTF-8 of every length, split across chunks anywhere, and a BOM', () => {
    const text = Buffer.from('\uFEFFid,question\ncafé,€ 5,𝄞 note,日本\r\n\ttab\n', 'utf8');
    for (const chunk of [1, 2, 3, 5, 64]) expect(check(text, chunk), `chunks of ${chunk}`).toEqual([]);
  });

  it('names the line and character of the first bad byte, counting code points and not the BOM', () => {
    const bytes = Buffer.concat([Buffer.from('\uFEFFid,question\n€𝄞 ok,', 'utf8'), latin1('caf\xe9\nn\xe9e\n')]);
    for (const chunk of [1, 4, 1024]) {
      expect(check(bytes, chunk), `chunks of ${chunk}`).toEqual([
        [2, 10, 'not valid UTF-8 (byte 0xE9): save the file as UTF-8; only the first bad byte is shown'],
      ]);
    }
  });

  it('refuses overlong forms, UTF-16 surrogates, code points above U+10FFFF and stray continuation bytes', () => {
    const cases: Array<[string, number[]]> = [
      ['overlong "/"', [0xc0, 0xaf]], ['overlong 3-byte', [0xe0, 0x80, 0xaf]], ['surrogate U+D800', [0xed, 0xa0, 0x80]],
      ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]], ['stray continuation', [0x80]], ['0xFF', [0xff]],
    ];
    for (const [what, bad] of cases) {
      const found = check(Buffer.concat([Buffer.from('ab'), Buffer.from(bad), Buffer.from('cd\n')]), 1);
      expect(found.map(([line, character]) => [line, character]), what).toEqual([[1, 3]]);
    }
  });

  it('reports a character cut short by a line end, or by the end of the file', () => {
    expect(check(Buffer.from([0x61, 0xe2, 0x82, 0x0a]))).toEqual([[1, 2, expect.stringMatching(/^not valid UTF-8 \(byte 0xE2\)/)]]);
    expect(check(Buffer.from([0x61, 0x0a, 0xf0, 0x9d, 0x84]))).toEqual([[2, 1, expect.stringMatching(/^the file ends inside a UTF-8 character/)]]);
  });
});

describe('TextCheck: control characters', () => {
  it('refuses NUL and other C0 controls, once per line, and keeps counting after them', () => {
    const found = check(Buffer.from('a\u0000b\u0000\nok\tfine\n\u001b[31mred\u000c\nx\u0001\n'), 1);
    expect(found).toEqual([
      [1, 2, 'control character U+0000 (NUL): only tab, line feed and CRLF line endings may appear in a dataset'],
      [3, 1, 'control character U+001B (escape): only tab, line feed and CRLF line endings may appear in a dataset'],
      [4, 2, 'control character U+0001: only tab, line feed and CRLF line endings may appear in a dataset'],
    ]);
  });

  it('accepts CRLF line ends, even split between chunks, and refuses a carriage return without a line feed', () => {
    expect(check(Buffer.from('a\r\nb\r\n'), 1)).toEqual([]);
    expect(check(Buffer.from('a\rb\r\nc\rd'), 1)).toEqual([
      [1, 2, 'control character U+000D (carriage return) without a line feed after it: save the file with LF or CRLF line endings'],
      [2, 2, expect.stringMatching(/carriage return/)],
    ]);
    expect(check(Buffer.from('ok\nend\r'))).toEqual([[2, 4, expect.stringMatching(/carriage return/)]]);
  });

  it('reports invalid UTF-8 and control characters side by side', () => {
    expect(check(latin1('\xe9\u0000\n\xe9\u0007\n'))).toEqual([
      [1, 1, expect.stringMatching(/^not valid UTF-8/)],
      [1, 2, expect.stringMatching(/U\+0000 \(NUL\)/)],
      [2, 2, expect.stringMatching(/U\+0007:/)],
    ]);
  });

  it('names controls readably', () => {
    expect(controlName(0)).toBe('control character U+0000 (NUL)');
    expect(controlName(0x1f)).toBe('control character U+001F');
  });
});
