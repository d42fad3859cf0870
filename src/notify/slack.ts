/**
 * A Slack incoming-webhook message in Block Kit. Limits pinned by test/unit/notify/slack.test.ts, from Slack's
 * reference (api.slack.com/reference/block-kit/blocks and /messaging/webhooks): at most 50 blocks per message; a
 * section's `text` at most 3000 characters and at most 10 `fields` of 2000 each; a header's plain_text at most 150;
 * a context block at most 10 elements. `text` is the fallback shown in notifications. In mrkdwn, `&`, `<` and `>`
 * must be escaped (api.slack.com/reference/surfaces/formatting#escaping).
 */
import { clip, facts, points, verdictText, type NotificationMessage } from './message';

export const SLACK_LIMITS = { blocks: 50, sectionText: 3000, fieldText: 2000, fields: 10, headerText: 150, contextElements: 10 } as const;

type Text = { type: 'mrkdwn' | 'plain_text'; text: string; emoji?: boolean };
export type SlackBlock =
  | { type: 'header'; text: Text }
  | { type: 'section'; text?: Text; fields?: Text[] }
  | { type: 'context'; elements: Text[] }
  | { type: 'divider' }
  | { type: 'actions'; elements: { type: 'button'; text: Text; url: string }[] };

export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** Data from users (questions, answers, reasons) must not turn into links or mentions. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
}

/** Escaped, then cut to `max` (escaping first, so the cut never leaves a broken entity past the limit). */
function mrkdwn(text: string, max: number = SLACK_LIMITS.sectionText): Text {
  const escaped = escapeMrkdwn(text);
  return { type: 'mrkdwn', text: escaped.length <= max ? escaped : `${escaped.slice(0, max - 1).replace(/&[a-z]*$/u, '')}…` };
}

function quote(text: string | undefined): string {
  return text === undefined ? '_(no answer)_' : text.split('\n').map((l) => `> ${l}`).join('\n');
}

export function renderSlack(m: NotificationMessage): SlackMessage {
  const blocks: SlackBlock[] = [];
  const header = clip(m.title, SLACK_LIMITS.headerText) ?? '';
  blocks.push({ type: 'header', text: { type: 'plain_text', text: header, emoji: false } });
  if (m.cause) blocks.push({ type: 'section', text: mrkdwn(`*Cause*: ${m.cause}`) });
  const fields = facts(m).slice(0, SLACK_LIMITS.fields).map(([k, v]) => mrkdwn(`*${k}*\n${v}`, SLACK_LIMITS.fieldText));
  blocks.push({ type: 'section', fields });
  if (m.reasons.length > 0) blocks.push({ type: 'section', text: mrkdwn(`*Why ${verdictText(m.verdict)}*\n${m.reasons.map((r) => `• ${r}`).join('\n')}`) });
  if (m.warnings.length > 0) blocks.push({ type: 'section', text: mrkdwn(`*Warnings*\n${m.warnings.map((r) => `• ${r}`).join('\n')}`) });
  if (m.regressed.length > 0) {
    blocks.push({ type: 'divider' });
    const more = m.regressedTotal > m.regressed.length ? ` (first ${m.regressed.length} of ${m.regressedTotal})` : '';
    blocks.push({ type: 'section', text: mrkdwn(`*Regressed rows*${more}: passed in the baseline, fail now`) });
    for (const row of m.regressed) {
      const where = row.siteId ? ` on ${row.siteId}` : '';
      blocks.push({ type: 'section', text: mrkdwn(`*${row.id}*${where}: ${row.question}\n*Before*\n${quote(row.before)}\n*Now*\n${quote(row.now)}`) });
    }
  }
  if (m.errors.length > 0) {
    blocks.push({ type: 'section', text: mrkdwn(`*Errors*\n${m.errors.map((e) => `• ${e.type}: ${e.count}${e.example ? ` — ${e.example}` : ''}`).join('\n')}`) });
  }
  if (m.reportUrl) blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the report' }, url: m.reportUrl }] });
  blocks.push({ type: 'context', elements: [mrkdwn(`sitechat · trigger: ${m.trigger}${m.finishedAt ? ` · finished ${m.finishedAt}` : ''}`)] });
  const delta = m.baseline ? `, ${points(m.baseline.delta)} vs baseline` : '';
  const text = `${m.title}${m.cause ? ` — ${m.cause}` : ''}${m.passRate !== null ? ` — pass rate ${((m.passRate ?? 0) * 100).toFixed(1)}%${delta}` : ''}`;
  return { text: escapeMrkdwn(text).slice(0, SLACK_LIMITS.sectionText), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}
