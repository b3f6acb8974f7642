import type { ParseOptions, Runner } from '../../src/cli/command.js';
import { buildProgram, commandGroupsFor } from '../../src/cli/main.js';
import { testIO } from './test-io.js';

/**
 * The options a command line parses into, through commander and the command's parse, without running anything:
 * the runner stops after the parse (the GitHub CLI's `runF` seam).
 */
export async function optionsOf(argv: string[]): Promise<unknown> {
  let captured: unknown = 'not parsed';
  const runner: Runner = {
    action: <O>(parse: ParseOptions<O>) => async (...commanderArgs: unknown[]) => {
      const cmd = commanderArgs.at(-1) as { opts(): Record<string, unknown>; processedArgs: unknown[] };
      const args = cmd.processedArgs.flatMap((a) => (Array.isArray(a) ? a.map(String) : a === undefined ? [] : [String(a)]));
      captured = parse({ flags: cmd.opts(), args });
    },
  };
  await buildProgram(testIO(), runner, await commandGroupsFor(argv)).parseAsync(argv, { from: 'user' });
  return captured;
}
