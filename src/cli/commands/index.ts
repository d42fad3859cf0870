import type { Command } from 'commander';
import { register as backfill } from './backfill';
import { register as run } from './run';
import { register as sim } from './sim';
import { register as watch } from './watch';
import { register as worker } from './worker';
import { register as check } from './check';
import { register as cleanup } from './cleanup';
import { register as schedule } from './schedule';
import { register as grade } from './grade';
import { register as runs } from './runs';
import { register as temporal } from './temporal';
import { register as server } from './server';
import { register as review } from './review';
import { register as compare } from './compare';
import { register as notify } from './notify';
import { register as labels } from './labels';
import { register as codecServer } from './codecServer';

/** A command file exports one of these: it declares options and lazily imports its action. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [run, backfill, grade, review, runs, compare, labels, watch, worker, sim, check, cleanup, schedule, notify, server, codecServer, temporal];
