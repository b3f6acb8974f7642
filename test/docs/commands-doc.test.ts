import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS_DOC, commandsDoc } from '../../scripts/docs-commands.mjs';
import { runCli } from '../helpers/test-io.js';

describe('docs/commands.md', () => {
  it('is the help of every command, as scripts/docs-commands.mjs writes it (run `npm run docs` after changing a command)', async () => {
    const expected = await commandsDoc(async (path) => (await runCli(['help', ...path], { env: { LC_ALL: 'en_US.UTF-8' } })).stdout);
    expect(readFileSync(COMMANDS_DOC, 'utf8')).toBe(expected);
  });

  it('holds every command and every option a user types (a sample written by hand)', () => {
    const doc = readFileSync(COMMANDS_DOC, 'utf8');
    for (const heading of ['## paybatch import', '## paybatch batch retry', '## paybatch boleto resolve', '## paybatch sandbox serve', '## paybatch ledger copy', '## paybatch man']) {
      expect(doc).toContain(`\n${heading}\n`);
    }
    for (const option of ['--pay-on <date>', '--skip-invalid', '--until-settled', '--allow-remote', '--not-paid', '--dialect <name>', '--client-ca']) {
      expect(doc).toContain(option);
    }
    // Machine-independent: no folder of this checkout, no colour.
    expect(doc).not.toContain(process.cwd());
    expect(doc).not.toContain('\u001b[');
  });
});
