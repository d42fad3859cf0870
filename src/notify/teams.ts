/**
 * A Microsoft Teams message for a Teams workflow webhook ("Post to a channel when a webhook request is received"),
 * which takes an Adaptive Card as an attachment (learn.microsoft.com: "Create incoming webhooks with Workflows for
 * Microsoft Teams"; the card format at adaptivecards.io/explorer): `{ type: 'message', attachments: [{ contentType:
 * 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: { $schema, type: 'AdaptiveCard', version,
 * body, actions } }] }`. Version 1.4: what Teams renders on every client. Teams refuses messages over about 28 KB,
 * so texts are clipped (message.ts) and the rows capped. Shape pinned by test/unit/notify/teams.test.ts.
 */
import { clip, facts, verdictText, type NotificationMessage } from './message';

/** Characters of one reason, warning or fact kept: a card is read on a phone too. */
const MAX_LINE = 500;

export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';
export const ADAPTIVE_CARD_VERSION = '1.4';
export const ADAPTIVE_CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';
/** Teams' message size limit, less room for the envelope. */
export const TEAMS_MAX_BYTES = 27_000;

type TextBlock = { type: 'TextBlock'; text: string; wrap: true; weight?: 'Bolder'; size?: 'Medium' | 'Large'; color?: 'Attention' | 'Good' | 'Warning'; isSubtle?: boolean; spacing?: 'Medium' };
type Element = TextBlock | { type: 'FactSet'; facts: { title: string; value: string }[] };

export interface TeamsMessage {
  type: 'message';
  attachments: {
    contentType: typeof ADAPTIVE_CARD_CONTENT_TYPE;
    contentUrl: null;
    content: { $schema: string; type: 'AdaptiveCard'; version: string; body: Element[]; actions?: { type: 'Action.OpenUrl'; title: string; url: string }[] };
  }[];
}

function text(t: string, extra: Partial<TextBlock> = {}): TextBlock {
  return { type: 'TextBlock', text: t, wrap: true, ...extra };
}

function colorOf(m: NotificationMessage): TextBlock['color'] {
  return m.verdict === 'failed' ? 'Attention' : m.verdict === 'passed' ? 'Good' : 'Warning';
}

export function renderTeams(m: NotificationMessage): TeamsMessage {
  const body: Element[] = [
    text(clip(m.title, 200) ?? '', { weight: 'Bolder', size: 'Medium', color: colorOf(m) }),
    ...(m.cause ? [text(`Cause: ${m.cause}`, { weight: 'Bolder', color: 'Attention' })] : []),
    { type: 'FactSet', facts: facts(m).map(([title, value]) => ({ title, value: clip(value, MAX_LINE) ?? '' })) },
  ];
  if (m.reasons.length > 0) {
    body.push(text(`Why ${verdictText(m.verdict)}`, { weight: 'Bolder', spacing: 'Medium' }));
    body.push(text(m.reasons.map((r) => `- ${clip(r, MAX_LINE) ?? ''}`).join('\n')));
  }
  if (m.warnings.length > 0) {
    body.push(text('Warnings', { weight: 'Bolder', spacing: 'Medium' }));
    body.push(text(m.warnings.map((r) => `- ${clip(r, MAX_LINE) ?? ''}`).join('\n')));
  }
  if (m.regressed.length > 0) {
    const more = m.regressedTotal > m.regressed.length ? ` (first ${m.regressed.length} of ${m.regressedTotal})` : '';
    body.push(text(`Regressed rows${more}: passed in the baseline, fail now`, { weight: 'Bolder', spacing: 'Medium' }));
    for (const row of m.regressed) {
      body.push(text(`${row.id}${row.siteId ? ` on ${row.siteId}` : ''}: ${row.question}`, { weight: 'Bolder' }));
      body.push({ type: 'FactSet', facts: [{ title: 'Before', value: row.before ?? '(no answer)' }, { title: 'Now', value: row.now ?? '(no answer)' }] });
    }
  }
  if (m.errors.length > 0) {
    body.push(text('Errors', { weight: 'Bolder', spacing: 'Medium' }));
    body.push(text(m.errors.map((e) => `- ${e.type}: ${e.count}${e.example ? ` — ${e.example}` : ''}`).join('\n')));
  }
  body.push(text(`sitechat · trigger: ${m.trigger}${m.finishedAt ? ` · finished ${m.finishedAt}` : ''}`, { isSubtle: true }));
  const content: TeamsMessage['attachments'][number]['content'] = { $schema: ADAPTIVE_CARD_SCHEMA, type: 'AdaptiveCard', version: ADAPTIVE_CARD_VERSION, body };
  if (m.reportUrl) content.actions = [{ type: 'Action.OpenUrl', title: 'Open the report', url: m.reportUrl }];
  const message: TeamsMessage = { type: 'message', attachments: [{ contentType: ADAPTIVE_CARD_CONTENT_TYPE, contentUrl: null, content }] };
  // Over the size limit: drop regressed rows from the end (their count stays in the heading) until it fits.
  while (JSON.stringify(message).length > TEAMS_MAX_BYTES && body.length > 3) {
    const rowsAt = body.findIndex((b) => b.type === 'FactSet' && b.facts[0]?.title === 'Before');
    if (rowsAt < 0) break;
    const last = body.map((b) => b.type === 'FactSet' && b.facts[0]?.title === 'Before').lastIndexOf(true);
    body.splice(last - 1, 2);
  }
  return message;
}
