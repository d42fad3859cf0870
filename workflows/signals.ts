import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ChunkFailure } from '../src/domain/stopEarly';
import type { OutcomeCounts, RunProgress } from '../src/domain/run';

/** Live progress of a run: counts by outcome, in flight, throughput, ETA. */
export const progressQuery = defineQuery<RunProgress>('progress');

/**
 * Graceful cancel: nothing new is asked, questions in flight are waited for (a second cancel abandons them),
 * sessions are closed, unsent rows recorded as `skipped`, reports written. A run that stops on its first asks'
 * refusal passes it to its chunks, for their unsent rows' reason.
 */
export const cancelSignal = defineSignal<[stopped?: ChunkFailure]>('cancel');

/** A chunk tells its run how many rows finished since its last report, and how many are in flight. */
export interface ChunkProgress {
  page: number;
  counts: Partial<OutcomeCounts>;
  inFlight: number;
  /** The chunk has sent its last question: the run may start the next chunk. */
  drained?: boolean;
  /** The run's first asks all got one refusal (src/domain/stopEarly.ts): the run stops asking, in every chunk. */
  stopped?: ChunkFailure;
}
export const chunkProgressSignal = defineSignal<[ChunkProgress]>('chunkProgress');
