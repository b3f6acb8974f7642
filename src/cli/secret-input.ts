import { readFileSync } from 'node:fs';
import { ConfigError, type PaybatchError } from '../errors.js';
import { canPrompt, type IO } from './io.js';
import type { Prompter } from './prompter.js';

/**
 * A secret that is never a flag: the variable `name`, else the file `${name}_FILE` names (systemd credentials, CI
 * secrets; one trailing newline dropped), else a hidden prompt asking `question` on a terminal. Without a terminal,
 * the error `noTerminal` makes (it names the variables).
 */
export async function secretInput(
  ctx: { readonly io: IO; readonly prompter: Prompter },
  name: string,
  o: { readonly question: string; readonly noTerminal: () => PaybatchError },
): Promise<string> {
  const { env } = ctx.io;
  if (env[name]) return env[name];
  const file = env[`${name}_FILE`];
  if (file) {
    try {
      return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new ConfigError(`${name}_FILE names a file that cannot be read: ${(e as Error).message}`, { reason: { code: 'secret_file_unreadable', variable: `${name}_FILE`, error: (e as Error).message } });
    }
  }
  if (!canPrompt(ctx.io)) throw o.noTerminal();
  return ctx.prompter.password(o.question);
}
