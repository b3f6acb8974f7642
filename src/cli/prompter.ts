import { CancelledError, UsageError } from '../errors.js';
import { canPrompt, type IO } from './io.js';

/** The questions paybatch asks a person; tests pass a scripted one. */
export interface Prompter {
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  input(message: string, options?: { default?: string; validate?: (v: string) => string | true }): Promise<string>;
  password(message: string): Promise<string>;
  select<T extends string>(message: string, choices: readonly { value: T; name?: string }[]): Promise<T>;
}

/**
 * Prompts through @inquirer/prompts on the given terminal. Without a terminal every question fails with a usage
 * error naming the flag that answers it, so cron and CI never hang on a prompt.
 */
export function terminalPrompter(io: IO): Prompter {
  const context = () => ({ input: io.stdin, output: io.stderr, clearPromptOnDone: false });
  const ask = async <T>(flag: string, run: (p: typeof import('@inquirer/prompts')) => Promise<T>): Promise<T> => {
    if (!canPrompt(io)) throw new UsageError(`This needs confirmation and there is no terminal to ask on; pass ${flag}.`);
    const prompts = await import('@inquirer/prompts');
    try {
      return await run(prompts);
    } catch (e) {
      if (e instanceof Error && e.name === 'ExitPromptError') throw new CancelledError();
      throw e;
    }
  };
  return {
    confirm: (message, o) => ask('--yes', (p) => p.confirm({ message, default: o?.default ?? false }, context())),
    input: (message, o) => ask('the matching flag', (p) => p.input({ message, default: o?.default, validate: o?.validate }, context())),
    password: (message) => ask('the matching environment variable', (p) => p.password({ message, mask: '*' }, context())),
    select: (message, choices) =>
      ask('the matching flag', (p) => p.select({ message, choices: choices.map((c) => ({ value: c.value, name: c.name ?? c.value })) }, context())),
  };
}
