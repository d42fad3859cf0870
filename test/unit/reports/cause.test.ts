import { describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../../src/api/errors';
import { diagnose } from '../../../src/check';
import { summaryTable } from '../../../src/cli/follow/summaryTable';
import { causeOfRow, causeText } from '../../../src/analysis/cause';
import { ErrorGroups, ownErrors } from '../../../src/analysis/errorGroups';
import { renderHtml } from '../../../src/render/html';
import { renderJUnit } from '../../../src/render/junit';
import { renderMarkdown, renderStepSummary } from '../../../src/render/markdown';
import { summarize } from '../../../src/analysis/summary';
import type { RowResult } from '../../../src/domain/results';
import { collect, iterate, meta, row } from './fixtures';

const KEY_CAUSE = 'the API refused the key (401 invalid_api_key): check SITECHAT_API_KEY';

/** A row the run's stop on a bad key left unsent, as the workflow records it now. */
const refused = (i: number): RowResult => row(i, {
  outcome: 'error', answer: undefined, latencyMs: undefined, errorType: 'AuthenticationError', errorStatus: 401, apiError: 'invalid_api_key',
  error: 'not sent: the run stopped on 401 invalid_api_key from GET /m2m/sites/{site_id}/sessions: the API key is missing … — check SITECHAT_API_KEY',
});
const serviceFailed = (i: number): RowResult => row(i, {
  outcome: 'error', answer: undefined, errorType: 'RequestFailed', apiError: 'failed to call rag service', error: 'request failed: failed to call rag service',
});

describe('the cause of a row\'s error', () => {
  it('is the API\'s status and `error` string, with the type of that status: never Unknown when the API said them', () => {
    expect(causeOfRow(refused(0))).toEqual({ type: 'AuthenticationError', status: 401, error: 'invalid_api_key' });
    // A row recorded before the status was (its message says it): still its class, not "Unknown".
    const before = { ...refused(0), errorType: undefined, errorStatus: undefined, apiError: undefined };
    expect(causeOfRow(before)).toEqual({ type: 'AuthenticationError', status: 401, error: 'invalid_api_key' });
    expect(causeOfRow(row(1, { outcome: 'error', error: '404 site not found from GET /m2m/sites/x/sessions: …' }))).toMatchObject({ type: 'SiteNotFoundError', status: 404 });
    expect(causeOfRow(serviceFailed(2))).toEqual({ type: 'RequestFailed', error: 'failed to call rag service' });
    expect(causeOfRow(row(3, { outcome: 'timed_out', error: 'no answer within 60s' }))).toEqual({ type: 'TimedOut' });
    expect(causeOfRow(row(4, { outcome: 'error', error: 'something else' }))).toEqual({ type: 'Unknown' });
    expect(causeOfRow(row(5, { outcome: 'skipped', error: 'run cancelled' }))).toBeUndefined();
  });

  it('is worded once, for the reports and the terminal\'s diagnosis alike', () => {
    expect(causeText({ type: 'AuthenticationError', status: 401, error: 'invalid_api_key' })).toBe(KEY_CAUSE);
    const check = diagnose(new AuthenticationError('x', { status: 401, error: 'invalid_api_key' }), { check: 'site', id: 'shop', baseUrl: 'http://x/api/v1', timeoutMs: 1000 });
    expect(check.diagnosis.startsWith(KEY_CAUSE)).toBe(true);
    expect(causeText({ type: 'PermissionDeniedError', status: 403, error: 'api_access_not_available_on_plan' })).toMatch(/^the key's plan has no API access \(403 api_access_not_available_on_plan\): .*Level 2/);
    expect(causeText({ type: 'SiteNotFoundError', status: 404, error: 'site not found' })).toMatch(/\(404 site not found\): check the site id$/);
    expect(causeText({ type: 'RequestFailed', error: 'failed to call rag service' })).toMatch(/^the service failed the request \(failed to call rag service\): /);
    expect(causeText({ type: 'JudgeServerError' }, 'grading failed: 500 from the judge')).toBe('JudgeServerError: grading failed: 500 from the judge');
  });
});

describe('the cause most errors share', () => {
  const tally = (rows: RowResult[]): ErrorGroups => {
    const groups = new ErrorGroups();
    for (const r of rows) groups.add(r);
    return groups;
  };

  it('leads when it is more than half of the rows that errored or timed out', () => {
    expect(tally(Array.from({ length: 66 }, (_, i) => refused(i))).main()).toEqual({
      text: KEY_CAUSE, rows: 66, errors: 66, type: 'AuthenticationError', status: 401, error: 'invalid_api_key',
    });
    const mixed = [refused(0), refused(1), refused(2), serviceFailed(3), row(4, { outcome: 'timed_out' }), row(5)];
    expect(tally(mixed).main()).toMatchObject({ rows: 3, errors: 5, status: 401 });
    // Half is not most.
    expect(tally([refused(0), serviceFailed(1)]).main()).toBeUndefined();
    expect(tally([row(0), row(1)]).main()).toBeUndefined();
  });

  it('groups two rows or more of one cause, and leaves an error of its own to be shown in full', () => {
    const rows = [...Array.from({ length: 30 }, (_, i) => refused(i)), serviceFailed(30)];
    const groups = tally(rows).collapsed();
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ rows: 30, text: KEY_CAUSE });
    expect(groups[0]?.ids).toHaveLength(ErrorGroups.IDS);
    // Of the first 10 rows kept for the section, the 30th is not among them: it is counted as not shown.
    expect(ownErrors(rows.slice(0, 10), rows.length, groups)).toEqual({ own: [], hidden: 1 });
    expect(ownErrors(rows, rows.length, groups)).toEqual({ own: [rows[30]], hidden: 0 });
  });
});

describe('a run whose errors share one cause', () => {
  const rows = [...Array.from({ length: 66 }, (_, i) => refused(i))];
  const summaryOf = async () => summarize(meta({ rowCount: 66 }), iterate(rows), undefined, { finishedAt: '2025-01-01T00:01:00.000Z' });

  it('has the cause in summary.json, and its errors by their type; the terminal says it under the run line', async () => {
    const s = await summaryOf();
    expect(s.cause).toMatchObject({ text: KEY_CAUSE, rows: 66, errors: 66, status: 401, error: 'invalid_api_key' });
    expect(s.errorsByType).toEqual({ AuthenticationError: 66 });
    expect(summaryTable(s).split('\n')[1]).toBe(`cause      66 of 66 errored rows: ${KEY_CAUSE}`);
  });

  it('leads every report with it, and shows its rows as one line instead of a card each', async () => {
    const s = await summaryOf();
    const md = await renderMarkdown(s, iterate(rows));
    // First thing under the title, before the figures.
    expect(md.split('\n\n')[1]).toBe('**Cause:** 66 of 66 errored rows: the API refused the key (401 invalid\\_api\\_key): check SITECHAT\\_API\\_KEY');
    expect(md.indexOf('**Cause:**')).toBeLessThan(md.indexOf('| Metric |'));
    expect(md).toContain('- 66 rows: the API refused the key');
    expect(md).not.toContain('### Row');
    const step = renderStepSummary(s);
    expect(step.indexOf('**Cause:**')).toBeLessThan(step.indexOf('| Metric |'));
    const html = (await collect(renderHtml(s, iterate(rows)))).join('');
    expect(html.indexOf('<p class="cause"')).toBeLessThan(html.indexOf('class="cards"'));
    expect(html).toContain('66 of 66 errored rows: the API refused the key (401 invalid_api_key): check SITECHAT_API_KEY');
    const xml = (await collect(renderJUnit({ ...s, gate: { verdict: 'failed', passed: false, reasons: ['66 of 66 rows errored'], warnings: [] } }, iterate(rows)))).join('');
    expect(xml).toMatch(/<failure message="cause: 66 of 66 errored rows: the API refused the key/);
    expect(xml).toContain('<property name="cause"');
  });
});
