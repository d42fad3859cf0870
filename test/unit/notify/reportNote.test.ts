import { describe, expect, it } from 'vitest';
import { outcomeLine, type NotifyOutcome } from '../../../src/domain/notify';
import { withNotificationsSection } from '../../../src/render/reportNote';

const ID = '0123456789abcdef0123456789abcdef';
const delivered: NotifyOutcome = { destination: 'webhook (HOOK_URL)', kind: 'webhook', status: 'delivered', trigger: 'failed', deliveryId: ID };
const refused: NotifyOutcome = { destination: 'slack (SLACK_URL)', kind: 'slack', status: 'failed', error: 'HTTP 403 Forbidden: invalid_token' };

describe('outcomeLine', () => {
  it('names the destination, then what became of it and the delivery id', () => {
    expect(outcomeLine(delivered)).toBe(`webhook (HOOK_URL): delivered (trigger failed), delivery ${ID}`);
    expect(outcomeLine(refused)).toBe('slack (SLACK_URL): FAILED: HTTP 403 Forbidden: invalid_token');
    expect(outcomeLine({ ...refused, error: 'HTTP 404 Not Found', deliveryId: ID })).toBe(`slack (SLACK_URL): FAILED: HTTP 404 Not Found, delivery ${ID}`);
    expect(outcomeLine({ destination: 'slack (SLACK_URL)', kind: 'slack', status: 'not_sent' })).toBe('slack (SLACK_URL): not sent (no trigger matched)');
  });
});

describe('withNotificationsSection', () => {
  it('ends report.md with a Notifications section listing each outcome, and says the verdict does not change', () => {
    const md = withNotificationsSection('# Report\n\nbody\n\n', [delivered, refused]);
    expect(md).toMatch(/^# Report\n\nbody\n/u);
    expect(md.slice(md.indexOf('## Notifications'))).toBe(
      `## Notifications\n\n- ${outcomeLine(delivered)}\n- ${outcomeLine(refused)}\n\nA failed notification does not change the verdict.\n`,
    );
  });

  it('replaces the section it wrote before (a retried activity leaves one), and leaves the report alone without outcomes', () => {
    const once = withNotificationsSection('# Report\n', [refused]);
    const twice = withNotificationsSection(once, [delivered]);
    expect(twice.match(/## Notifications/gu)).toHaveLength(1);
    expect(twice).toContain(outcomeLine(delivered));
    expect(twice).not.toContain(outcomeLine(refused));
    expect(withNotificationsSection('# Report\n', undefined)).toBe('# Report\n');
  });
});
