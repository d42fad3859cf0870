import { describe, expect, it } from 'vitest';
import { escapeXml, escapeXmlAttr, formatMs, mdFence, mdInline, truncate } from '../../../src/render/escape';

describe('escaping', () => {
  it('escapes markup and replaces characters XML cannot carry', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeXml('bell\u0007 nul\u0000 esc\u001b tab\t lone\uD800 ok😀')).toBe('bell\uFFFD nul\uFFFD esc\uFFFD tab\t lone\uFFFD ok😀');
    expect(escapeXmlAttr('a\nb\tc\rd')).toBe('a&#10;b&#9;c&#13;d');
  });

  it('truncates without splitting a surrogate pair', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('abcdef', 3)).toBe('abc… [+3 chars]');
    expect(truncate('ab😀cd', 3)).toBe('ab… [+4 chars]');
  });

  it('makes untrusted text inert in Markdown', () => {
    expect(mdInline('a | b\n*c* <img src=x> [l](u) `c`')).toBe('a \\| b \\*c\\* &lt;img src=x&gt; \\[l\\](u) \\`c\\`');
    const fenced = mdFence('before\n```\n<script>x</script>\n````');
    expect(fenced.startsWith('`````text\n')).toBe(true);
    expect(fenced.endsWith('\n`````')).toBe(true);
  });

  it('formats durations for people', () => {
    expect([null, 849.6, 12_460, 245_000, 7_380_000].map(formatMs)).toEqual(['n/a', '850 ms', '12.5 s', '4m 05s', '2h 03m']);
  });
});
