/**
 * Typed starts of the workflows of this folder, for the processes that start them (the CLI, schedules, the review
 * page, bench and scripts). Not workflow code: nothing the workflows import imports it, so it is never bundled.
 */
import type { Client, ScheduleOptionsStartWorkflowAction, WorkflowHandleWithStartDetails, WorkflowStartOptions } from '@temporalio/client';
import type { WorkflowResultType } from '@temporalio/common';
import type * as workflows from '.';

/**
 * The runner's workflow functions by their registered names. A type-only import: the CLI never loads workflow
 * code, yet every start below checks its arguments (and types its result) against the function it names.
 */
export type Workflows = typeof workflows;
export type WorkflowName = keyof Workflows;

/** Starts the named workflow; `args` must be what that workflow function takes. */
export function startWorkflow<N extends WorkflowName>(
  client: Client, name: N, options: WorkflowStartOptions<Workflows[N]>,
): Promise<WorkflowHandleWithStartDetails<Workflows[N]>> {
  return client.workflow.start<Workflows[N]>(name, options);
}

/** Starts the named workflow and waits for its result, typed as that workflow function returns it. */
export function executeWorkflow<N extends WorkflowName>(
  client: Client, name: N, options: WorkflowStartOptions<Workflows[N]>,
): Promise<WorkflowResultType<Workflows[N]>> {
  return client.workflow.execute<Workflows[N]>(name, options);
}

/** A schedule action that starts the named workflow, its `args` checked the same way. */
export function startWorkflowAction<N extends WorkflowName>(
  name: N, action: Omit<ScheduleOptionsStartWorkflowAction<Workflows[N]>, 'type' | 'workflowType'>,
): ScheduleOptionsStartWorkflowAction<Workflows[N]> {
  return { type: 'startWorkflow', workflowType: name, ...action };
}
