/** docs/commands.md, which `node scripts/docs-commands.mjs` writes. */
export const COMMANDS_DOC: URL;
/** The text of docs/commands.md from `help(path)`, the English help of a command path as printed to a pipe. */
export function commandsDoc(help: (path: string[]) => Promise<string>): Promise<string>;
