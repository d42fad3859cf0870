import { describe, expect, it } from 'vitest';
import { ADAPTIVE_CARD_CONTENT_TYPE, renderTeams, TEAMS_MAX_BYTES } from '../../../src/notify/teams';
import { fullMessage } from './fixtures';

// The documented shape a Teams workflow webhook takes (learn.microsoft.com, "Create incoming webhooks with Workflows
// for Microsoft Teams"; adaptivecards.io): a message with one Adaptive Card attachment.
describe('Teams Adaptive Card payload', () => {
  it('is a message with one adaptive card attachment of a version Teams renders', () => {
    const msg = renderTeams(fullMessage());
    expect(msg.type).toBe('message');
    expect(msg.attachments).toHaveLength(1);
    const [att] = msg.attachments;
    expect(att?.contentType).toBe(ADAPTIVE_CARD_CONTENT_TYPE);
    expect(att?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(att?.contentUrl).toBeNull();
    expect(att?.content.type).toBe('AdaptiveCard');
    expect(att?.content.$schema).toBe('http://adaptivecards.io/schemas/adaptive-card.json');
    expect(['1.0', '1.1', '1.2', '1.3', '1.4', '1.5']).toContain(att?.content.version);
    expect(att?.content.body.length).toBeGreaterThan(0);
    for (const el of att?.content.body ?? []) {
      expect(['TextBlock', 'FactSet']).toContain(el.type);
      if (el.type === 'TextBlock') {
        expect(el.wrap).toBe(true);
        expect(el.text.length).toBeGreaterThan(0);
      } else {
        for (const f of el.facts) expect(typeof f.title === 'string' && typeof f.value === 'string').toBe(true);
      }
    }
    expect(att?.content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the report', url: fullMessage().reportUrl }]);
  });

  it('stays under the Teams message size limit and keeps the verdict and reasons', () => {
    const huge = fullMessage({ regressed: Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, question: 'q'.repeat(300), before: 'b'.repeat(300), now: 'n'.repeat(300) })) });
    const text = JSON.stringify(renderTeams(huge));
    expect(text.length).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    expect(text).toContain('FAILED');
    expect(text).toContain('reason 0');
  });

  it('has no actions without a report link', () => {
    expect(renderTeams(fullMessage({ reportUrl: undefined })).attachments[0]?.content.actions).toBeUndefined();
  });
});
