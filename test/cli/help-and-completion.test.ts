import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandPaths } from '../helpers/command-paths.js';
import { runCli } from '../helpers/test-io.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Every command path below the program. */
async function allCommandPaths(): Promise<string[][]> {
  return (await commandPaths()).slice(1);
}

describe('help', () => {
  it('`paybatch help keys check` prints the help of the subcommand, with the global flags', async () => {
    const r = await runCli(['help', 'keys', 'check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: paybatch keys check [options] <key...>');
    expect(r.stdout).toContain('--type <type>');
    expect(r.stdout).toContain('Global Options:');
    for (const flag of ['--json', '--profile <name>', '--ledger <path|url>', '--no-color', '--quiet', '--verbose']) expect(r.stdout).toContain(flag);
    expect(r.stdout).not.toContain('lookup');
  });

  it('refuses a path that names no command', async () => {
    const r = await runCli(['help', 'keys', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('There is no command "keys nope".');
  });

  it('shows examples on the top level', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toContain('Examples:\n  paybatch import pagamentos.csv --start');
  });

  it.each([
    'batch list', 'batch show', 'batch items', 'batch start', 'batch delete', 'alerts list', 'alerts ack', 'receipts fetch',
    'webhook subscribe', 'template', 'config init', 'config show', 'keys lookup', 'completion', 'man',
  ])('`%s --help` shows examples', async (path) => {
    const r = await runCli([...path.split(' '), '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\nExamples:\\n  (source <\\()?paybatch( --profile \\w+)? ${path.split(' ')[0]}`));
  });

  it('no example of `boleto pay` leaves part of a line out with "..."', async () => {
    const examples = (await runCli(['boleto', 'pay', '--help'])).stdout.split('Examples:\n')[1]!;
    expect(examples.split('\n').filter((l) => l.startsWith('  paybatch')).length).toBeGreaterThanOrEqual(3);
    expect(examples).not.toContain('...');
  });

  it('--version prints JSON with --json, before or after it', async () => {
    for (const argv of [['--json', '--version'], ['--version', '--json']]) {
      const r = await runCli(argv);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ version });
    }
    expect((await runCli(['-V'])).stdout).toBe(`${version}\n`);
  });
});

describe('--json errors', () => {
  it('give a stable code as type and commander messages without "error: "', async () => {
    const r = await runCli(['keys', 'check', '--json', '--bogus']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ ok: false, error: { type: 'usage', message: "unknown option '--bogus'", exitCode: 2 } });
  });

  it('name a refused input input_invalid', async () => {
    const r = await runCli(['keys', 'lookup', '123.456.789-00', '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).error).toMatchObject({ type: 'input_invalid', exitCode: 3 });
  });
});

describe('completion and man page', () => {
  it('the tree has the commands a reader expects (a floor for the checks below)', async () => {
    const paths = (await allCommandPaths()).map((p) => p.join(' '));
    for (const p of ['import', 'keys check', 'keys lookup', 'batch show', 'alerts ack', 'boleto pay', 'config init', 'completion', 'man']) expect(paths).toContain(p);
  });

  it.each(['bash', 'zsh', 'fish'])('the %s script names every command', async (shell) => {
    const r = await runCli(['completion', shell]);
    expect(r.code).toBe(0);
    for (const path of await allCommandPaths()) {
      const name = path.at(-1)!;
      if (shell === 'fish') expect(r.stdout).toMatch(new RegExp(`-a ${name} -d`));
      else expect(r.stdout).toContain(`'${path.join(' ')}'`);
    }
  });

  it('bash completes subcommands, flags and choices', async () => {
    const { stdout } = await runCli(['completion', 'bash']);
    expect(stdout).toContain("complete -o default -F _paybatch paybatch");
    expect(stdout).toContain("'keys') words='check lookup ");
    expect(stdout).toContain("'keys check --type') COMPREPLY=($(compgen -W 'cpf cnpj phone email evp' -- \"$cur\")); return ;;");
  });

  it('fish completes a subcommand only after its group', async () => {
    const { stdout } = await runCli(['completion', 'fish']);
    expect(stdout).toContain("complete -c paybatch -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from check lookup' -a check -d");
    expect(stdout).toContain("complete -c paybatch -l json -d");
  });

  it('with --json, the script and the page are one JSON document', async () => {
    const bash = (await runCli(['completion', 'bash'])).stdout;
    expect(JSON.parse((await runCli(['completion', 'bash', '--json'])).stdout)).toEqual({ shell: 'bash', script: bash });
    expect(JSON.parse((await runCli(['--json', 'man'])).stdout).roff).toMatch(/^\.TH PAYBATCH 1 /);
  });

  it('refuses a shell it does not know', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Allowed choices are bash, zsh, fish");
  });

  it('the man page is roff naming every command, the global flags and the exit codes', async () => {
    const r = await runCli(['man']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\.TH PAYBATCH 1 "\d{4}-\d{2}-\d{2}" "paybatch /);
    expect(r.stdout).toContain('.SH SYNOPSIS');
    expect(r.stdout).toContain('.B \\-\\-json');
    expect(r.stdout).toContain('.SH EXIT STATUS\n.TP\n.B 0\nok');
    for (const path of await allCommandPaths()) expect(r.stdout).toContain(`.SS paybatch ${path.join(' ').replaceAll('-', '\\-')}\n`);
  });
});
