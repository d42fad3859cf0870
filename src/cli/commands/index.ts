import type { Command } from 'commander';
import { register as backfill } from './backfill/command';
import { register as run } from './run/command';
import { register as sim } from './sim/command';
import { register as watch } from './watch/command';
import { register as worker } from './worker/command';
import { register as check } from './check/command';
import { register as cleanup } from './cleanup/command';
import { register as schedule } from './schedule/command';
import { register as grade } from './grade/command';
import { register as runs } from './runs/command';
import { register as temporal } from './temporal/command';
import { register as server } from './server/command';
import { register as review } from './review/command';
import { register as compare } from './compare/command';
import { register as notify } from './notify/command';
import { register as labels } from './labels/command';
import { register as codecServer } from './codecServer/command';

/** A command file exports one of these: it declares options and lazily imports its action. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [run, backfill, grade, review, runs, compare, labels, watch, worker, sim, check, cleanup, schedule, notify, server, codecServer, temporal];
