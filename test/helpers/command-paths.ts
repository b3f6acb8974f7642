import { runCli } from './test-io.js';

/**
 * Every command path of the program (the program itself first), read from `paybatch help <path>` listings under
 * `commandsTitle` (the help's "Commands:" heading in its language): no list kept by hand.
 */
export async function commandPaths(env: Record<string, string> = {}, commandsTitle = 'Commands:'): Promise<string[][]> {
  const paths: string[][] = [[]];
  const visit = async (path: string[]): Promise<void> => {
    const help = (await runCli(['help', ...path], { env })).stdout;
    const section = help.split(`\n${commandsTitle}\n`)[1];
    if (section === undefined) return;
    const names = section.split('\n\n')[0]!.split('\n').filter((l) => /^  \S/.test(l)).map((l) => l.trim().split(/\s+/)[0]!).filter((n) => n !== 'help');
    for (const name of names) {
      paths.push([...path, name]);
      await visit([...path, name]);
    }
  };
  await visit([]);
  return paths;
}
