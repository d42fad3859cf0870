import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/render/escape';
import { renderHtml } from '../../../src/render/html';
import { html, joinHtml, raw, SafeHtml, type HtmlValue } from '../../../src/render/htmlTemplate';
import { summarize } from '../../../src/analysis/summary';
import type { RowResult } from '../../../src/domain/results';
import { HOSTILE_CELLS } from '../../helpers/csvHostile';
import { collect, iterate, meta, row } from './fixtures';

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

describe('a page rendered through the template, from hostile run data', () => {
  const HOSTILE = [...HOSTILE_CELLS, '</script><script>alert(1)</script>', '" onmouseover="alert(1)', "' onfocus='alert(2)", '<img src=x onerror=alert(3)>'];

  it('report.html: every hostile text is in the page escaped, none opens a tag or leaves an attribute', async () => {
    const rows: RowResult[] = HOSTILE.map((text, i) => row(i, {
      id: `id${i}${text}`, tags: [text], question: text, answer: text, expected: text, outcome: i % 2 ? 'failed' : 'passed',
      assertions: [{ type: 'contains', pass: i % 2 === 0, score: 0, reason: text, rule: text }],
    }));
    const summary = await summarize(meta({ dataset: `/data/${HOSTILE[HOSTILE.length - 1]}.csv` }), iterate(rows), undefined, { finishedAt: '2025-01-01T00:05:00.000Z' });
    const page = (await collect(renderHtml(summary, iterate(rows), { maxText: 10_000 }))).join('');
    // The page's own tags only: one script, no img, no event handler in any tag (the texts are between tags, escaped).
    const tags = page.match(/<[a-z][^>]*>/gu) ?? [];
    expect(tags.filter((t) => t.startsWith('<script'))).toEqual(['<script>']);
    expect(tags.filter((t) => t.startsWith('<img') || /\son\w+=/u.test(t))).toEqual([]);
    for (const text of HOSTILE) {
      expect(page).toContain(`<td class="text">${escapeHtml(text)}</td>`);
      expect(page).toContain(`<td class="tags">${escapeHtml(text)}</td>`);
    }
  });
});
