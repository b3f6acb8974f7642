import type { Command } from 'commander';
import type { Context } from './context.js';

/** A command's work: options of that command, its positional arguments; returns the exit code (0 when void). */
export type CommandAction<O> = (ctx: Context, opts: O, args: readonly string[]) => Promise<number | void>;

/** Turns a CommandAction into a commander action handler that builds the run's Context. */
export interface Runner {
  action<O>(fn: CommandAction<O>): (...commanderArgs: unknown[]) => Promise<void>;
}

/** Each module in cli/commands/ exports one of these; it only declares flags and lazy-loads its work. */
export type RegisterCommands = (program: Command, runner: Runner) => void;

/** Positional arguments as commander parsed them, variadic ones flattened. */
export function positionals(cmd: Command): string[] {
  return cmd.processedArgs.flatMap((a: unknown) => (Array.isArray(a) ? a.map(String) : a === undefined ? [] : [String(a)]));
}
