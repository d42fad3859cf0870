/**
 * Escaping and truncation for the hand-written report formats. Answers, questions and error
 * strings are untrusted text: everything that reaches XML, HTML or Markdown goes through here.
 */
import { plural } from '../shared/plural';
import type { RunSummary } from '../domain/results';

/** Code points XML 1.0 forbids (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const INVALID_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Replaces characters that XML 1.0 (and sane HTML) cannot carry with U+FFFD. */
export function replaceInvalidChars(text: string): string {
  return text.replace(INVALID_XML, '\uFFFD');
}

/** Escapes text for XML/HTML element content. */
export function escapeXml(text: string): string {
  return replaceInvalidChars(text).replace(/[&<>"']/g, (ch) => XML_ENTITIES[ch] ?? ch);
}

/** Escapes text for a double- or single-quoted XML/HTML attribute; keeps tabs and newlines as references. */
export function escapeXmlAttr(text: string): string {
  return replaceInvalidChars(text).replace(/[&<>"'\t\n\r]/g, (ch) => XML_ENTITIES[ch] ?? ch);
}

/** HTML escaping is the same as XML's here; the alias says which format a call site writes. */
export const escapeHtml = escapeXml;
export const escapeHtmlAttr = escapeXmlAttr;

/**
 * At most `max` UTF-16 units of `text` (never splitting a surrogate pair), with a marker saying how
 * much was cut.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… [+${text.length - end} chars]`;
}

/**
 * Markdown for a single-line context inside a line (a table cell, after a label): whitespace
 * collapsed, HTML special characters as entities, inline Markdown punctuation backslash-escaped.
 * Never put the result at the start of a line, where `#`, `-` or `1.` would still mean something.
 */
export function mdInline(text: string, max = 200): string {
  const flat = truncate(replaceInvalidChars(text).replace(/\s+/g, ' ').trim(), max);
  return flat
    .replace(/[\\`*_[\]|~]/g, (ch) => `\\${ch}`)
    .replace(/[&<>]/g, (ch) => XML_ENTITIES[ch] ?? ch);
}

/** A fenced code block that `text` cannot break out of (the fence is longer than any backtick run inside). */
export function mdFence(text: string, max = 1000): string {
  const body = truncate(replaceInvalidChars(text), max);
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${body}\n${fence}`;
}

/** "… 3 more rows not shown" for capped listings: `noun` singular, `after` what follows it. */
export function moreLine(hidden: number, noun: string, after = ''): string {
  return `… ${plural(hidden, `more ${noun}`)}${after}`;
}

/** A duration for people: `850 ms`, `12.5 s`, `4m 05s`, `2h 03m`; `n/a` for null. */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return 'n/a';
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  if (totalSeconds < 3600) return `${Math.floor(totalSeconds / 60)}m ${two(totalSeconds % 60)}s`;
  return `${Math.floor(totalSeconds / 3600)}h ${two(Math.floor((totalSeconds % 3600) / 60))}m`;
}

/** What the LLM judge did in a run: calls paid for, verdicts served from the cache, tokens used. */
export function judgeLine(j: { calls: number; cached: number; tokens: number }): string {
  return `${plural(j.calls, 'call')}, ${j.cached} cached, ${j.tokens.toLocaleString('en-US')} tokens`;
}

/** Rows escalated to the judge, how it settled them and what that cost: "12 rows: 9 passed, 2 failed, 1 still uncertain; 11 calls, …". */
export function escalationLine(e: NonNullable<RunSummary['escalated']>): string {
  const unsettled = e.unsettled > 0 ? `, ${e.unsettled} still uncertain (the judge could not answer)` : '';
  return `${plural(e.rows, 'uncertain row')}: ${e.passed} passed, ${e.failed} failed${unsettled}; ${judgeLine(e)}`;
}

/** One wording for every report, after its "reviewed" label: "2 rows settled by labels" (by `sitechat review`, or labels a run applied). */
export function reviewedLine(n: number): string {
  return `${plural(n, 'row')} settled by labels`;
}

/**
 * One wording for every report: "re-asked after the service failed: 2 rows (3 requests), 2 answered on a re-ask". Not
 * `askedTwice`: each re-ask followed a request the service itself reported failed.
 */
export function reaskedLine(r: NonNullable<RunSummary['reasked']>): string {
  return `re-asked after the service failed: ${plural(r.rows, 'row')} (${plural(r.requests, 'request')}), ${r.answered} answered on a re-ask`;
}

/**
 * One wording for every report: "3 rows may have been asked twice (4 sends after one that may have reached the API: a
 * lost response, a 5xx, a time-out)".
 */
export function askedTwiceText(a: NonNullable<RunSummary['askedTwice']>): string {
  const extra = a.extraSends ? plural(a.extraSends, 'send') : 'a send';
  return `${plural(a.count, 'row')} may have been asked twice (${extra} after one that may have reached the API: a lost response, a 5xx, a time-out)`;
}
