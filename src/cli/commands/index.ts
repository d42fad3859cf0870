import type { Command } from 'commander';
import { register as run } from './run';

/** A command file exports one of these: it declares options and lazily imports its action. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [run];
