import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/test-io.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('paybatch command skeleton', () => {
  it('prints its version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('lists the command groups and exit codes in --help', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['import', 'batch', 'keys', 'boleto', 'config', 'sandbox', '--json', '--profile', '--ledger', '--no-color', '--quiet', '--verbose']) {
      expect(r.stdout).toContain(c);
    }
    expect(r.stdout).toContain('Exit codes: 0 ok, 1 failure, 2 usage, 3 input rejected, 4 attention needed');
  });

  it('answers an unknown command with a suggestion and exit code 2', async () => {
    const r = await runCli(['imprt', 'x.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'imprt'");
    expect(r.stderr).toContain('import');
    expect(r.stdout).toBe('');
  });

  it('with --json, a usage error is still one JSON document on stdout', async () => {
    const r = await runCli(['keys', 'check', '--json', '--type', 'iban', 'x']);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(false);
    expect(doc.error.type).toBe('usage');
    expect(doc.error.message).not.toMatch(/^error: /);
  });

  it('accepts global options before or after the command', async () => {
    const before = await runCli(['--json', 'keys', 'check', 'ana@example.com']);
    const after = await runCli(['keys', 'check', 'ana@example.com', '--json']);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });
});

describe('paybatch keys check', () => {
  it('prints one object per key with --json and exits 0 when all are valid', async () => {
    const r = await runCli(['keys', 'check', '529.982.247-25', '+55 11 98765-4321', ' Ana.Souza@Example.COM ', '--json']);
    expect(r.code).toBe(0);
    const docs = JSON.parse(r.stdout);
    expect(docs).toEqual([
      { input: '529.982.247-25', valid: true, type: 'cpf', normalized: '52998224725', ambiguousWith: [], error: null },
      { input: '+55 11 98765-4321', valid: true, type: 'phone', normalized: '+5511987654321', ambiguousWith: [], error: null },
      { input: ' Ana.Souza@Example.COM ', valid: true, type: 'email', normalized: 'ana.souza@example.com', ambiguousWith: [], error: null },
    ]);
  });

  it('exits 3 and explains when a key is invalid', async () => {
    const r = await runCli(['keys', 'check', '123.456.789-00', '--json']);
    expect(r.code).toBe(3);
    const [doc] = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ valid: false, type: null, normalized: null });
    expect(doc.error).toMatch(/check digit/i);
  });

  it('checks as the given --type', async () => {
    const r = await runCli(['keys', 'check', '--type', 'phone', '11987654321', '--json']);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ valid: true, type: 'phone', normalized: '+5511987654321' });
  });

  it('shows a table for people, without colour when not on a terminal', async () => {
    const r = await runCli(['keys', 'check', 'ana@example.com']);
    expect(r.stdout).toContain('ana@example.com');
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('never colours output with NO_COLOR, even on a terminal', async () => {
    const coloured = await runCli(['keys', 'check', 'ana@example.com'], { tty: true });
    const plain = await runCli(['keys', 'check', 'ana@example.com'], { tty: true, env: { NO_COLOR: '1' } });
    expect(coloured.stdout).toContain('\u001b[');
    expect(plain.stdout).not.toContain('\u001b[');
  });
});
