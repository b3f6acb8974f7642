import { describe, expect, it } from 'vitest';
import { commandPaths } from '../helpers/command-paths.js';
import { runCli } from '../helpers/test-io.js';

// Every command's help read whole in each language, line by line, for words of the other language: a help that
// mixes languages is what this catches (an independent list of each language's common words, not paybatch's texts).
const ENGLISH = new Set(
  'the and with when which this that from every each its is are be only not of to by or if it into than will would print show an all any was were has have instead without before after until their them they your you can cannot must should these those what who how where while been being does'.split(' '),
);
const PORTUGUESE = new Set(
  'não você uma para com pelo pela pelos pelas quando também já até só mostra lote lotes conta contas comprovante comprovantes provedor registro planilha cada seu sua seus suas sem ainda então porque isso esta este essa esse nada nenhum nenhuma depois antes quem onde'.split(' '),
);

/** The prose of a help line: flags, placeholders, names of settings and variables, quoted values and commands taken out. */
function prose(line: string): string[] {
  // Usage lines are the command path; in a listing, the first column is a command, an argument or flags.
  if (/^(Usage|Uso):/.test(line)) return [];
  let text = /^ {2}\S.*?\S? {2,}(\S.*)$/.exec(line)?.[1] ?? line;
  // An example line: the command, then its explanation (after a # or a gap of 3 spaces or more).
  if (/^\s+(paybatch|source|printf|echo|PAYBATCH_|curl|systemctl|\$)\b/.test(text)) {
    const why = /#(.*)$/.exec(text)?.[1] ?? /\S\s{3,}(\S.*)$/.exec(text)?.[1];
    text = why ?? '';
  }
  return text
    .replace(/https?:\/\/\S+/g, ' ')
    // Hyphenated terms (end-to-end, line-or-barcode) are names, in either language.
    .replace(/\b\w+(-\w+)+\b/g, ' ')
    .replace(/(^|\s)-{1,2}[\w-]+/g, ' ')
    .replace(/<[^>]*>|\[[^\]]*\]|"[^"]*"|`[^`]*`|'[^']*'/g, ' ')
    .replace(/\b[A-Z][A-Z0-9_]{2,}\b/g, ' ')
    .replace(/\b[a-z]+[A-Z]\w*\b/g, ' ')
    .toLowerCase()
    .split(/[^a-zà-ú]+/)
    .filter(Boolean);
}

describe('the help speaks one language', () => {
  it.each([
    ['pt-BR', 'pt_BR.UTF-8', 'Comandos:', ENGLISH],
    ['en', 'en_US.UTF-8', 'Commands:', PORTUGUESE],
  ] as const)('in %s, no line of any command\'s help has words of the other language', async (_locale, lcAll, commandsTitle, foreign) => {
    const env = { LC_ALL: lcAll };
    const paths = await commandPaths(env, commandsTitle);
    expect(paths.length).toBeGreaterThan(40);
    const mixed: string[] = [];
    for (const path of paths) {
      const help = (await runCli(['help', ...path], { env })).stdout;
      for (const line of help.split('\n')) {
        const words = prose(line).filter((w) => foreign.has(w));
        if (words.length > 0) mixed.push(`paybatch ${path.join(' ')}: ${line.trim()}  [${words.join(', ')}]`);
      }
    }
    expect(mixed).toEqual([]);
  });
});
