import type { CommandNode, OptionNode } from './command-tree.js';

/** Text for roff: backslashes and hyphens escaped, and no line may start with a dot or a quote (a request). */
function roff(s: string): string {
  return s
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

function options(list: readonly OptionNode[]): string[] {
  return list.flatMap((o) => ['.TP', `.B ${roff(o.flags)}`, roff(o.choices.length ? `${o.description} (${o.choices.join(', ')})` : o.description)]);
}

/**
 * The paybatch(1) man page in roff, from the command tree: every command with its usage, description and options,
 * the global options, and the exit codes. `date` is the page's date (YYYY-MM-DD).
 */
export function manPage(tree: readonly CommandNode[], o: { version: string; date: string }): string {
  const [root, ...commands] = tree;
  const lines = [
    `.TH PAYBATCH 1 "${o.date}" "paybatch ${roff(o.version)}" "User Commands"`,
    '.SH NAME',
    `paybatch \\- ${roff(root!.description)}`,
    '.SH SYNOPSIS',
    '.B paybatch',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    roff(
      'paybatch pays sheets of Pix payments and bills through a payment provider\'s API, with a local SQLite ledger that never pays anyone twice. ' +
        'With no provider configured, every command uses an embedded sandbox: no real money moves.',
    ),
    '.SH GLOBAL OPTIONS',
    ...options(root!.options),
    '.SH COMMANDS',
  ];
  for (const c of commands) {
    lines.push(`.SS ${roff(`paybatch ${c.path.join(' ')}`)}`, `.B paybatch ${roff(c.path.join(' '))}`, roff(c.usage), '.PP', roff(c.description));
    if (c.subcommands.length) lines.push('.PP', roff(`Commands: ${c.subcommands.map((s) => s.name).join(', ')}.`));
    else lines.push(...options(c.options));
  }
  lines.push(
    '.SH EXIT STATUS',
    ...[
      ['0', 'ok'],
      ['1', 'failure (provider unreachable, configuration, a bug)'],
      ['2', 'usage: wrong flags or arguments, or a confirmation needed without a terminal'],
      ['3', 'input rejected: invalid sheet rows, keys or bill codes; nothing was changed'],
      ['4', 'attention needed: open alerts, final returns, failed payments, payments still open'],
    ].flatMap(([code, meaning]) => ['.TP', `.B ${code}`, roff(meaning!)]),
    '.SH ENVIRONMENT',
    roff('Every setting can come from PAYBATCH_ and its name in upper snake case, e.g. PAYBATCH_BASE_URL; PAYBATCH_PROFILE and PAYBATCH_LEDGER choose the profile and the ledger. See paybatch config show.'),
    '.SH SEE ALSO',
    roff('paybatch help <command>, paybatch completion bash|zsh|fish'),
  );
  return `${lines.join('\n')}\n`;
}
