import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleAction } from '../../src/cli/commands/schedule/action';
import type { Logger } from '../../src/cli/logger';
import type { ScheduleDetails } from '../../src/schedules';
import { DEMO } from '../../src/sim/constants';
import type { MultiSiteInput, MultiSiteResult } from '../../src/domain/multiSite';
import { pointCliAt, startStack, type Stack } from '../helpers/stack';

const SITES = `${DEMO.siteId},demo-empty-site`;

describe('a nightly schedule with several sites (real dev server + simulator)', () => {
  let restoreEnv: () => void = () => undefined;
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    stack = await startStack(__filename);
    await stack.startWorkers();
    dir = mkdtempSync(join(tmpdir(), 'sitechat-ms-schedule-'));
    restoreEnv = pointCliAt(stack);
  });
  afterAll(async () => {
    restoreEnv();
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--site a,b: the schedule starts multiSiteRun; a trigger runs every site and writes the combined report', async () => {
    const dataset = join(dir, 'q.csv');
    writeFileSync(dataset, 'question,must_include\nHow much does the Personal plan cost?,$9.99\nHow much storage do I get for free?,5 GB\n');
    const out: string[] = [];
    const log: Logger = { info: () => undefined, warn: () => undefined, error: (l) => void out.push(`error: ${l}`), debug: () => undefined, out: (t) => void out.push(t) };
    const code = await scheduleAction({ op: 'create-nightly', flags: { cron: '0 2 * * *', dataset, site: SITES, id: 'ms-nightly', failUnder: '0.5', json: true } }, { log });
    expect(code, out.join('\n')).toBe(0);
    const details = JSON.parse(out.join('\n')) as ScheduleDetails;
    expect(details).toMatchObject({ workflowType: 'multiSiteRun', siteId: SITES, workflowId: 'sitechat-evaluation-ms-nightly' });
    expect(details.input as MultiSiteInput).toMatchObject({ runId: '', sites: [DEMO.siteId, 'demo-empty-site'], dataset: { path: dataset, sha256: '' } });

    const handle = stack.client.schedule.getHandle('ms-nightly');
    await handle.trigger();
    let workflowId: string | undefined;
    for (let i = 0; i < 100 && !workflowId; i++) {
      workflowId = (await handle.describe()).info.recentActions.at(-1)?.action.workflow.workflowId;
      if (!workflowId) await new Promise((r) => setTimeout(r, 200));
    }
    const result = (await stack.client.workflow.getHandle(workflowId as string).result()) as MultiSiteResult;
    const runId = (workflowId as string).replace(/^sitechat-evaluation-/, '').replace(/:/g, '');
    expect(result.runId).toBe(runId);
    expect(result.summary.sites.map((s) => [s.siteId, s.runId, s.verdict])).toEqual([
      [DEMO.siteId, `${runId}-${DEMO.siteId}`, 'passed'],
      ['demo-empty-site', `${runId}-demo-empty-site`, 'failed'],
    ]);
    expect(result.summary.gate?.verdict).toBe('failed');
    expect(result.reportDir).toBe(join(stack.runsDir, runId));
    await handle.delete();
  }, 180_000);
});
