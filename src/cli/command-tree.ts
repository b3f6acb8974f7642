import type { Command, Option } from 'commander';

/** One command of the tree as completion scripts and the man page describe it. */
export interface CommandNode {
  /** Words after `paybatch`, e.g. ['keys', 'check']; empty for the program itself. */
  readonly path: readonly string[];
  readonly description: string;
  /** `[options] <key...>` as commander writes it. */
  readonly usage: string;
  readonly subcommands: readonly { name: string; description: string }[];
  /** The command's own options; the program's (global) ones are on the root node. */
  readonly options: readonly OptionNode[];
}

export interface OptionNode {
  /** `--type <type>`, `-q, --quiet`. */
  readonly flags: string;
  readonly long: string | null;
  readonly short: string | null;
  readonly description: string;
  /** The values a `.choices()` option takes. */
  readonly choices: readonly string[];
}

/** Every command of the program, parents before children, read from commander's tree (never a list kept by hand). */
export function commandTree(program: Command): CommandNode[] {
  const nodes: CommandNode[] = [];
  const visit = (cmd: Command, path: readonly string[]): void => {
    const visible = cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
    nodes.push({
      path,
      description: cmd.description(),
      usage: cmd.usage(),
      subcommands: visible.map((c) => ({ name: c.name(), description: c.description() })),
      // commander's own list: the command's visible options, its --help last (in the help's language).
      options: cmd.createHelp().visibleOptions(cmd).map(optionNode),
    });
    for (const c of visible) visit(c, [...path, c.name()]);
  };
  visit(program, []);
  return nodes;
}

function optionNode(o: Option): OptionNode {
  return { flags: o.flags, long: o.long ?? null, short: o.short ?? null, description: o.description, choices: o.argChoices ?? [] };
}
