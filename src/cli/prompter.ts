import type { Locale } from '../words/locale.js';
import { CancelledError, UsageError } from '../errors.js';
import { canPrompt, type IO } from './io.js';
import { promptMessages, yesOrNo } from './messages/prompts.js';

/** The questions paybatch asks a person; tests pass a scripted one. */
export interface Prompter {
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  input(message: string, options?: { default?: string; validate?: (v: string) => string | true }): Promise<string>;
  password(message: string): Promise<string>;
  select<T extends string>(message: string, choices: readonly { value: T; name?: string }[]): Promise<T>;
}

/**
 * Prompts through @inquirer/prompts on the given terminal, in the run's language (`locale`, read when a question is
 * asked). A yes/no question takes that language's answers (s/sim/n/não in Portuguese, y/yes too) and asks again on
 * anything else: a stray key never answers for the person. Without a terminal every question fails with a usage
 * error naming the flag that answers it, so cron and CI never hang on a prompt.
 */
export function terminalPrompter(io: IO, locale: () => Locale = () => 'en'): Prompter {
  const context = () => ({ input: io.stdin, output: io.stderr, clearPromptOnDone: false });
  const ask = async <T>(flag: string, run: (p: typeof import('@inquirer/prompts')) => Promise<T>): Promise<T> => {
    if (!canPrompt(io)) throw new UsageError(promptMessages[locale()].noTerminal(flag));
    const prompts = await import('@inquirer/prompts');
    try {
      return await run(prompts);
    } catch (e) {
      if (e instanceof Error && e.name === 'ExitPromptError') throw new CancelledError();
      throw e;
    }
  };
  return {
    confirm: (message, o) =>
      ask('--yes', async (p) => {
        const defaultYes = o?.default ?? false;
        const w = promptMessages[locale()];
        const answer = await p.input(
          { message: `${message} ${w.choices(defaultYes)}`, validate: (v) => (yesOrNo(v, locale(), defaultYes) === null ? w.notAnAnswer : true) },
          context(),
        );
        return yesOrNo(answer, locale(), defaultYes)!;
      }),
    input: (message, o) => ask('the matching flag', (p) => p.input({ message, default: o?.default, validate: o?.validate }, context())),
    password: (message) => ask('the matching environment variable', (p) => p.password({ message, mask: '*' }, context())),
    select: (message, choices) =>
      ask('the matching flag', (p) => p.select({ message, choices: choices.map((c) => ({ value: c.value, name: c.name ?? c.value })) }, context())),
  };
}
