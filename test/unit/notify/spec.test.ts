import { describe, expect, it } from 'vitest';
import { resolveNotifySpec } from '../../../src/notify/flags';
import { NotifySpecError, parseDestination, parseTriggers } from '../../../src/domain/notify';
import { firedTrigger } from '../../../src/notify/triggers';

describe('notify destinations and triggers', () => {
  it('takes env var names, never URLs', () => {
    expect(parseDestination('slack:SITECHAT_SLACK_WEBHOOK')).toEqual({ kind: 'slack', urlEnv: 'SITECHAT_SLACK_WEBHOOK' });
    expect(parseDestination('teams:TEAMS_URL')).toEqual({ kind: 'teams', urlEnv: 'TEAMS_URL' });
    expect(parseDestination('webhook:HOOK_URL:HOOK_SECRET')).toEqual({ kind: 'webhook', urlEnv: 'HOOK_URL', secretEnv: 'HOOK_SECRET' });
    expect(() => parseDestination('slack:https://hooks.slack.com/services/T/B/X')).toThrow(/NAME of an environment variable/u);
    expect(() => parseDestination('webhook:HOOK_URL')).toThrow(NotifySpecError);
    expect(() => parseDestination('slack:1BAD')).toThrow(/not an environment variable name/u);
    expect(() => parseDestination('email:X')).toThrow(/unknown destination/u);
    expect(() => parseDestination('slack:A:B')).toThrow(/only webhook/u);
  });

  it('parses triggers and names the flag or config key in errors', () => {
    expect(parseTriggers('failed, recovered,failed')).toEqual(['failed', 'recovered']);
    expect(() => parseTriggers('failed,sometimes')).toThrow(/"sometimes"/u);
    expect(resolveNotifySpec({ notify: ['slack:A'] })).toEqual({ destinations: [{ kind: 'slack', urlEnv: 'A' }], on: ['failed', 'recovered'] });
    expect(resolveNotifySpec({}, { notify: ['teams:T'], notifyOn: ['always'] }, 'x.yaml')).toEqual({ destinations: [{ kind: 'teams', urlEnv: 'T' }], on: ['always'] });
    expect(() => resolveNotifySpec({ notify: ['slack:A'], notifyOn: 'nope' })).toThrow(/^--notify-on /u);
    expect(() => resolveNotifySpec({}, { notify: ['bad'] }, 'x.yaml')).toThrow(/^x\.yaml: `notify` /u);
    expect(() => resolveNotifySpec({ notifyOn: 'failed' })).toThrow(/needs at least one --notify/u);
    expect(resolveNotifySpec({})).toBeUndefined();
  });

  it('fires `recovered` only for a pass after a failed run, and prefers the specific trigger over `always`', () => {
    const on = ['failed', 'recovered'] as const;
    expect(firedTrigger(on, 'passed', true)).toBe('recovered');
    expect(firedTrigger(on, 'passed', false)).toBeUndefined();
    expect(firedTrigger(on, 'passed', undefined)).toBeUndefined();
    expect(firedTrigger(on, 'failed', true)).toBe('failed');
    expect(firedTrigger(on, 'cancelled', true)).toBeUndefined();
    expect(firedTrigger(['always'], 'passed', false)).toBe('always');
    expect(firedTrigger(['always', 'cancelled'], 'cancelled', undefined)).toBe('cancelled');
    expect(firedTrigger(['recovered'], 'failed', true)).toBeUndefined();
  });
});
