import type { Command } from 'commander';
import type { Locale } from '../words/locale.js';
import type { Context } from './context.js';

/** What commander parsed for one command: its own options (camelCase) and its positional arguments. */
export interface RawInput {
  readonly flags: Readonly<Record<string, unknown>>;
  readonly args: readonly string[];
}

/**
 * Turns raw flags into a command's typed, readonly options, or throws a UsageError naming the flag. Pure and light:
 * it runs before anything heavy is loaded, and is tested on its own (test/cli/options.test.ts).
 */
export type ParseOptions<O> = (raw: RawInput) => O;

/** A command's work on its parsed options; returns the exit code (0 when void). */
export type RunCommand<O> = (ctx: Context, opts: O) => Promise<number | void>;

/**
 * Turns a parse and a run into a commander action handler that builds the run's Context, parses, then runs — the
 * seam of the GitHub CLI's `NewCmdX(f, runF)`: a test runner can stop after the parse and look at the options.
 */
export interface Runner {
  action<O>(parse: ParseOptions<O>, run: RunCommand<O>): (...commanderArgs: unknown[]) => Promise<void>;
}

/**
 * Each module in cli/commands/ exports one of these; it only declares flags (their help in `locale`, from its catalog
 * in cli/messages/help/) and lazy-loads its work.
 */
export type RegisterCommands = (program: Command, runner: Runner, locale: Locale) => void;

/** Positional arguments as commander parsed them, variadic ones flattened. */
export function positionals(cmd: Command): string[] {
  return cmd.processedArgs.flatMap((a: unknown) => (Array.isArray(a) ? a.map(String) : a === undefined ? [] : [String(a)]));
}

/** For commands without flags or arguments. */
export const noOptions: ParseOptions<Readonly<Record<string, never>>> = () => ({});
