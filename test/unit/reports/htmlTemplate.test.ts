import { describe, expect, it } from 'vitest';
import { html, joinHtml, raw, SafeHtml, type HtmlValue } from '../../../src/render/htmlTemplate';

describe('html, the escaping template', () => {
  it('escapes text: & < > " \' become entities, and characters HTML cannot carry become U+FFFD', () => {
    expect(html`<p>${'a & b < c > d "e" \'f\''}</p>`.value).toBe('<p>a &amp; b &lt; c &gt; d &quot;e&quot; &#39;f&#39;</p>');
    expect(html`<p>${'</p><script>alert(1)</script>'}</p>`.value).toBe('<p>&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html`<p>${'nul \u0000 esc \u001b'}</p>`.value).toBe('<p>nul \uFFFD esc \uFFFD</p>');
  });

  it('keeps line breaks in text but escapes them in an attribute, where a value cannot close its quotes', () => {
    const value = '" onmouseover="alert(1)\tx\ny';
    expect(html`<p title="${value}">${value}</p>`.value).toBe(
      '<p title="&quot; onmouseover=&quot;alert(1)&#9;x&#10;y">&quot; onmouseover=&quot;alert(1)\tx\ny</p>',
    );
    // An attribute after others of the same tag, and text after the tag closed in a later literal.
    expect(html`<td class="${'a"b'}" data-v="${'1\n2'}">${'1\n2'}</td>`.value).toBe('<td class="a&quot;b" data-v="1&#10;2">1\n2</td>');
  });

  it('inserts a nested template once, not escaped twice', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}</p>`.value).toBe('<p><b>&lt;i&gt;</b></p>');
    expect(html`<p>${html`${html`${'&'}`}`}</p>`.value).toBe('<p>&amp;</p>');
  });

  it('joins lists without a separator, escaping each plain item; leaves out null, undefined and false', () => {
    const items: HtmlValue[] = ['<a>', html`<li>${'&'}</li>`, 3, null, undefined, false, ['x', ['<y>']]];
    expect(html`<ul>${items}</ul>`.value).toBe('<ul>&lt;a&gt;<li>&amp;</li>3x&lt;y&gt;</ul>');
    expect(joinHtml(['<a>', html`<br>`, 'b'], '\n').value).toBe('&lt;a&gt;\n<br>\nb');
    expect(joinHtml(['a', 'b'], raw('<br>')).value).toBe('a<br>b');
  });

  it('takes markup only from raw() or another template: a plain string or a look-alike object is text', () => {
    expect(html`<style>${raw('a > b { color: red }')}</style>`.value).toBe('<style>a > b { color: red }</style>');
    const lookalike = { value: '<script>alert(1)</script>', toString: () => '<script>alert(1)</script>' } as unknown as SafeHtml;
    expect(lookalike instanceof SafeHtml).toBe(false);
    expect(html`<p>${lookalike as unknown as string}</p>`.value).not.toContain('<script>');
    expect(String(html`<p>${'x'}</p>`)).toBe('<p>x</p>');
  });
});
