import type { IO } from './io.js';
import { Output } from './output.js';
import type { Prompter } from './prompter.js';
import { terminalPrompter } from './prompter.js';

/** Options every command accepts (see `paybatch --help`). */
export interface GlobalOptions {
  readonly json: boolean;
  readonly profile?: string;
  readonly ledger?: string;
  readonly color: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
}

/** What main() can be given instead of the real process: tests inject buffers, a clock and scripted prompts. */
export interface MainDeps {
  readonly io?: IO;
  readonly now?: () => Date;
  readonly prompter?: Prompter;
}

/** Everything a command needs, built once per run. Heavy resources are opened on first use by their getters. */
export interface Context {
  readonly io: IO;
  readonly out: Output;
  readonly globals: GlobalOptions;
  readonly prompter: Prompter;
  now(): Date;
  /** Registers cleanup (close the ledger, stop an embedded sandbox) to run when the command ends. */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export function createContext(io: IO, globals: GlobalOptions, deps: MainDeps): Context {
  const closers: (() => Promise<void> | void)[] = [];
  return {
    io,
    globals,
    out: new Output(io, { json: globals.json, quiet: globals.quiet, verbose: globals.verbose, color: globals.color }),
    prompter: deps.prompter ?? terminalPrompter(io),
    now: deps.now ?? (() => new Date()),
    onClose: (fn) => void closers.push(fn),
    async close() {
      // Last opened, first closed: a ledger outlives nothing that was opened after it.
      for (const fn of closers.splice(0).reverse()) await fn();
    },
  };
}
