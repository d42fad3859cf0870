import { defineQuery } from '@temporalio/workflow';
import type { MultiSiteState } from '../src/domain/multiSite';

/** The sites of a multi-site run and their workflow ids, so a client can query each site's progress. */
export const multiSiteQuery = defineQuery<MultiSiteState>('multiSite');

/** Workflow type of multi-site runs (exported as `multiSiteRun` by workflows/index.ts). */
export const MULTI_SITE_WORKFLOW_TYPE = 'multiSiteRun';

/** A site's run id inside a multi-site run: `<runId>-<site>`; site ids are checked to be safe in folder names. */
export function siteRunId(runId: string, siteId: string): string {
  return `${runId}-${siteId}`;
}
