import type { Command } from 'commander';

/** A command file exports one of these: it declares options and lazily imports its action. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [];
