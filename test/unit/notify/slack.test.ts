import { describe, expect, it } from 'vitest';
import { renderSlack, SLACK_LIMITS, type SlackBlock } from '../../../src/notify/slack';
import { fullMessage } from './fixtures';

/** Every text object of a block, with the limit Slack documents for it. */
function texts(block: SlackBlock): { text: string; max: number }[] {
  switch (block.type) {
    case 'header': return [{ text: block.text.text, max: SLACK_LIMITS.headerText }];
    case 'section': return [
      ...(block.text ? [{ text: block.text.text, max: SLACK_LIMITS.sectionText }] : []),
      ...(block.fields ?? []).map((f) => ({ text: f.text, max: SLACK_LIMITS.fieldText })),
    ];
    case 'context': return block.elements.map((e) => ({ text: e.text, max: SLACK_LIMITS.sectionText }));
    case 'actions': return block.elements.map((e) => ({ text: e.text.text, max: 75 }));
    default: return [];
  }
}

// Slack's documented Block Kit format and limits (api.slack.com/reference/block-kit/blocks): a message has
// `text` (fallback) and `blocks` (≤ 50); header plain_text ≤ 150; section text ≤ 3000, fields ≤ 10 of ≤ 2000;
// context ≤ 10 elements; a button's text ≤ 75 and its url ≤ 3000.
describe('Slack Block Kit payload', () => {
  it('has the documented structure and stays within every limit, whatever the length of the data', () => {
    const msg = renderSlack(fullMessage());
    expect(typeof msg.text).toBe('string');
    expect(msg.text.length).toBeGreaterThan(0);
    expect(msg.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    expect(msg.blocks[0]?.type).toBe('header');
    const allowed = new Set(['header', 'section', 'context', 'divider', 'actions']);
    for (const block of msg.blocks) {
      expect(allowed.has(block.type)).toBe(true);
      for (const { text, max } of texts(block)) {
        expect(text.length).toBeGreaterThan(0);
        expect(text.length).toBeLessThanOrEqual(max);
      }
      if (block.type === 'section') {
        expect(block.text ?? block.fields).toBeDefined();
        expect((block.fields ?? []).length).toBeLessThanOrEqual(SLACK_LIMITS.fields);
        for (const t of [block.text, ...(block.fields ?? [])].filter(Boolean)) expect(t?.type).toBe('mrkdwn');
      }
      if (block.type === 'header') expect(block.text.type).toBe('plain_text');
      if (block.type === 'context') expect(block.elements.length).toBeLessThanOrEqual(SLACK_LIMITS.contextElements);
    }
  });

  it('carries the verdict, every reason, the pass rate and change, the regressed rows, the errors and the report link', () => {
    const m = fullMessage({ reasons: ['pass rate 80.0% is below 90.0%', '2 rows regressed significantly'] });
    const all = JSON.stringify(renderSlack(m));
    for (const needle of ['FAILED', 'pass rate 80.0% is below 90.0%', '2 rows regressed significantly', '80.0%', '-10.0 pp', 'q0', 'q4', 'now 4', 'ServerError', 'help-center', '/data/questions.csv', m.reportUrl ?? '']) {
      expect(all).toContain(needle);
    }
    expect(all).toContain('first 5 of 12');
  });

  it('escapes &, < and > in user data so answers cannot mention @channel or make links', () => {
    const all = JSON.stringify(renderSlack(fullMessage()));
    expect(all).not.toContain('<@channel>');
    expect(all).not.toContain('<!here>');
    expect(all).toContain('&lt;@channel&gt;');
  });
});
