import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { RegisterCommands, Runner } from '../../src/cli/command.js';
import { commandGroupsFor } from '../../src/cli/main.js';

const runner: Runner = { action: () => async () => {} };

/** The top-level commands the groups register, in order. */
function commandsOf(groups: readonly RegisterCommands[]): string[] {
  const program = new Command('paybatch');
  for (const register of groups) register(program, runner, 'en');
  return program.commands.map((c) => c.name());
}

describe('commandGroupsFor: the command modules a command line loads', () => {
  it('loads none for --version alone', async () => {
    expect(await commandGroupsFor(['--version'])).toEqual([]);
    expect(await commandGroupsFor(['--json', '-V'])).toEqual([]);
  });

  it('loads every one, in help order, with no command, for help and for an unknown command', async () => {
    const every = commandsOf(await commandGroupsFor([]));
    expect(every.slice(0, 4)).toEqual(['import', 'template', 'batch', 'keys']);
    expect(every).toContain('boleto');
    for (const argv of [['--help'], ['help', 'keys', 'check'], ['kyes', 'check'], ['--json']]) {
      expect(commandsOf(await commandGroupsFor(argv))).toEqual(every);
    }
  });

  it('loads only the module that registers the command named (a command missing from the table loads them all)', async () => {
    const every = commandsOf(await commandGroupsFor([]));
    for (const command of every) {
      const registered = commandsOf(await commandGroupsFor([command, '--help']));
      expect(registered).toContain(command);
      expect({ command, registered: registered.length }).toEqual({ command, registered: command === 'import' || command === 'template' ? 2 : 1 });
    }
  });

  it('finds the command after global options, also one that takes a value', async () => {
    expect(commandsOf(await commandGroupsFor(['--profile', 'keys', '--json', 'batch', 'list']))).toEqual(['batch']);
    expect(commandsOf(await commandGroupsFor(['--ledger', '/tmp/l.db', '-q', 'template']))).toEqual(['import', 'template']);
    expect(commandsOf(await commandGroupsFor(['--profile=prod', 'keys', 'check', '--version']))).toEqual(['keys']);
  });
});
