import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

describe('the embedded sandbox (default profile)', () => {
  it('starts on a brand-new machine for a command that needs no ledger, and says SANDBOX', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'never', 'created'), HOME: dir };
    const r = await runCli(['keys', 'lookup', 'ana@example.com', '--json', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('SANDBOX');
    expect(JSON.parse(r.stdout)).toMatchObject({ found: true, destination: { key: 'ana@example.com', type: 'email' } });
  });
});

describe('sandbox state and profiles', () => {
  it('keeps the embedded sandbox state where no profile ledger can be, so a profile named "sandbox" works', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    // The default profile's embedded sandbox writes its state first (it used to be ledger-sandbox.db).
    expect((await runCli(['batch', 'list', '--json'], { env })).code).toBe(0);
    expect((await runCli(['keys', 'lookup', 'ana@example.com', '--quiet'], { env })).code).toBe(0);
    expect((await runCli(['--profile', 'sandbox', 'config', 'init', '--sandbox'], { env })).code).toBe(0);
    const r = await runCli(['--profile', 'sandbox', 'keys', 'lookup', 'ana@example.com', '--json', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    const list = await runCli(['--profile', 'sandbox', 'batch', 'list', '--json'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
    const files = readdirSync(join(dir, 'd', 'paybatch')).filter((f) => f.endsWith('.db')).sort();
    expect(files).toEqual(['ledger-sandbox.db', 'ledger-sandbox.sandbox-state.db', 'ledger.db', 'ledger.sandbox-state.db']);
    // The sandbox's state holds the keys looked up (people's data): as private as the ledger.
    for (const f of files) expect({ f, mode: statSync(join(dir, 'd', 'paybatch', f)).mode & 0o777 }).toEqual({ f, mode: 0o600 });
  });
});

describe('paybatch keys lookup, for people', () => {
  it('labels each field of the answer in English', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    const json = JSON.parse((await runCli(['keys', 'lookup', 'ana@example.com', '--json', '--quiet'], { env })).stdout);
    const r = await runCli(['keys', 'lookup', 'ana@example.com', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`Name\t${json.destination.name}`);
    expect(lines).toContain('Pix key\tana@example.com');
    expect(lines).toContain('Key type\temail');
    expect(lines).toContain(`Institution\t${json.destination.institutionName}`);
    expect(r.stdout).not.toMatch(/accountType|institutionName|accountNumber/);
  });

  it('in Portuguese, with the account type in words', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir, LC_ALL: 'pt_BR.UTF-8' };
    const json = JSON.parse((await runCli(['keys', 'lookup', 'ana@example.com', '--json', '--quiet'], { env })).stdout);
    const r = await runCli(['keys', 'lookup', 'ana@example.com', '--quiet'], { env });
    const words: Record<string, string> = { checkingAccount: 'corrente', savingsAccount: 'poupança', paymentAccount: 'pagamento', salaryAccount: 'salário' };
    expect(r.stdout).toContain(`Tipo de conta\t${words[json.destination.accountType] ?? json.destination.accountType}`);
    expect(r.stdout).toContain('Chave Pix\tana@example.com');
    expect(r.stdout).toContain('Agência\t');
  });
});

describe('paybatch receipts fetch', () => {
  it('says no receipt was missing instead of "0 receipts saved"', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    const r = await runCli(['receipts', 'fetch', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('✓ No receipt was missing: every paid item already has its receipt.\n');
  });
});
