import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/cli/logger';
import { escapeControl } from '../../../src/cli/terminalText';

describe('escapeControl', () => {
  it('shows ESC sequences, CR, BEL, DEL, C1 and bidi overrides escaped; keeps tabs, newlines and ordinary Unicode', () => {
    expect(escapeControl('\x1b[31mred\x1b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(escapeControl('\x1b]0;pwned\x07')).toBe('\\u001b]0;pwned\\u0007');
    expect(escapeControl('ok\rFAKE')).toBe('ok\\u000dFAKE');
    expect(escapeControl('\x7f\x9b\u202e')).toBe('\\u007f\\u009b\\u202e');
    expect(escapeControl('a\tb\nc ✓ Grüße 日本')).toBe('a\tb\nc ✓ Grüße 日本');
  });

  it('keeps JSON valid: an escaped string still parses to the same text', () => {
    const json = JSON.stringify({ q: 'x\u202ey\x7f' });
    expect(JSON.parse(escapeControl(json))).toEqual({ q: 'x\u202ey\x7f' });
  });
});

describe('the CLI logger', () => {
  it('never writes a raw control character from a message to the terminal', () => {
    const writes: string[] = [];
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    try {
      const log = createLogger();
      log.error('data.csv:1: unknown column `\x1b[2Jq\x1b[0m`');
      log.info('answer: \x1b]8;;http://evil.example\x07link');
      log.out('dataset \x1b[31mred.csv\r');
    } finally {
      err.mockRestore();
      out.mockRestore();
    }
    for (const raw of ['\x1b', '\x07', '\r']) expect(writes.join('')).not.toContain(raw);
    expect(writes[0]).toBe('error: data.csv:1: unknown column `\\u001b[2Jq\\u001b[0m`\n');
  });
});
