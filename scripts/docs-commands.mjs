#!/usr/bin/env node
// Writes docs/commands.md: the English help of every command, read from the command tree itself (`paybatch help
// <path>` for the program and every command it lists), so the reference cannot say what the program does not.
// Run after `npm run build` (npm run docs); test/docs/commands-doc.test.ts fails when the file differs from this.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
/** The checkout's folder, as defaults that name a file of the package print it (the demo's sheet). */
const ROOT_PATH = fileURLToPath(root).replace(/\/$/, '');
export const COMMANDS_DOC = new URL('docs/commands.md', root);

const INTRO = `# Commands

Every command of paybatch with its arguments and options, as \`paybatch help <command>\` prints them in English (in
\`pt-BR\` the same help is printed in Portuguese). This file is generated from the program's own command tree by
\`npm run docs\` (\`scripts/docs-commands.mjs\`); do not edit it by hand: a test fails when it differs from the program.

Every command also takes the global options listed under [\`paybatch\`](#paybatch) (\`--json\`, \`--profile\`,
\`--ledger\`, \`--no-color\`, \`--quiet\`, \`--verbose\`); their block, printed again in each command's help, is left out
below. Exit codes, \`--json\` and its errors: [scripting.md](scripting.md).
`;

/** The names a help lists under "Commands:", without commander's own `help` entries. */
function listedCommands(help) {
  const section = help.split('\nCommands:\n')[1];
  if (section === undefined) return [];
  return section
    .split('\n\n')[0]
    .split('\n')
    .filter((line) => /^ {2}\S/.test(line))
    .map((line) => line.trim().split(/\s+/)[0])
    .filter((name) => name !== 'help');
}

/** A help without its "Global Options:" block (the same in every command; the program's own help lists them). */
function withoutGlobalOptions(help) {
  return help.replace(/\nGlobal Options:\n(?: {2}.*\n)+/, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading) => heading.toLowerCase().replace(/[^\w\s-]/g, '').replace(/\s/g, '-');

/**
 * The text of docs/commands.md. `help(path)` answers the English help of one command path (`[]`: the program), as
 * `paybatch help …` prints it to a pipe (80 columns, no colour).
 */
export async function commandsDoc(help) {
  const sections = [];
  const visit = async (path) => {
    // A default naming a file of the package shows where this checkout is: written as <package>, the same anywhere.
    const text = (await help(path)).replaceAll(ROOT_PATH, '<package>').replace(/\s+$/, '');
    sections.push({ path, text: path.length === 0 ? text : withoutGlobalOptions(text) });
    for (const name of listedCommands(text)) await visit([...path, name]);
  };
  await visit([]);
  const title = (path) => ['paybatch', ...path].join(' ');
  const index = sections.map(({ path }) => `${'  '.repeat(Math.max(0, path.length - 1))}- [\`${title(path)}\`](#${anchor(title(path))})`);
  const bodies = sections.map(({ path, text }) => `## ${title(path)}\n\n\`\`\`text\n${text}\n\`\`\`\n`);
  return `${INTRO}\n${index.join('\n')}\n\n${bodies.join('\n')}`;
}

/** The help of the built program, run as a user runs it: a pipe (so 80 columns, no colour), in English. */
function builtHelp(path) {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL('bin/paybatch.js', root)), 'help', ...path], {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'en_US.UTF-8', NO_COLOR: '1' },
  });
  if (run.status !== 0) throw new Error(`paybatch help ${path.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(COMMANDS_DOC, await commandsDoc(async (path) => builtHelp(path)));
  console.log(`wrote ${fileURLToPath(COMMANDS_DOC)}`);
}
