import { describe, expect, it } from 'vitest';
import { buildProgram, commandGroupsFor } from '../../src/cli/main.js';
import { PAYBATCH_COMMANDS, withProfile } from '../../src/words/profile-commands.js';
import { testIO } from '../helpers/test-io.js';

describe('suggested commands carry the profile they are about', () => {
  it('adds --profile after "paybatch" of each suggested command, for a profile other than the default', () => {
    expect(withProfile("then paybatch config set pixAmountUnit cents (or reais)", 'carga')).toBe('then paybatch --profile carga config set pixAmountUnit cents (or reais)');
    expect(withProfile("Run 'paybatch batch retry 2' again; or `paybatch batch start 2`.", 'carga')).toBe(
      "Run 'paybatch --profile carga batch retry 2' again; or `paybatch --profile carga batch start 2`.",
    );
    expect(withProfile('Start it with: paybatch batch start 1', 'filial sul')).toBe("Start it with: paybatch --profile 'filial sul' batch start 1");
  });

  it('leaves the default profile, a command naming its profile already, and the program named in a sentence as they are', () => {
    expect(withProfile('Start it with: paybatch batch start 1', 'default')).toBe('Start it with: paybatch batch start 1');
    expect(withProfile('Start it with: paybatch batch start 1', undefined)).toBe('Start it with: paybatch batch start 1');
    expect(withProfile("Create it with 'paybatch config init --profile NAME'.", 'carga')).toBe("Create it with 'paybatch config init --profile NAME'.");
    expect(withProfile('see `paybatch --profile carga alerts list`', 'carga')).toBe('see `paybatch --profile carga alerts list`');
    for (const sentence of [
      'Another paybatch daemon holds this ledger: pid 12 on a, since x.',
      'The file x is not a usable paybatch ledger: empty.',
      'the private key (approver-key.pem in the paybatch config folder)',
      'serve the web dashboard (as paybatch ui does) while the daemon runs',
      'the provider answered status "x", which paybatch does not know',
    ]) {
      expect(withProfile(sentence, 'carga')).toBe(sentence);
    }
  });

  it("knows every command of the program (help, completion and man act on no profile)", async () => {
    const program = buildProgram(testIO(), { action: () => async () => {} }, await commandGroupsFor([]));
    const names = program.commands.map((c) => c.name()).filter((n) => !['help', 'completion', 'man'].includes(n));
    expect([...names].sort()).toEqual([...PAYBATCH_COMMANDS].sort());
  });
});
