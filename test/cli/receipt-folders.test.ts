import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeConfigFile } from '../../src/config/config-file.js';
import { receiptsFolder } from '../../src/receipts/receipts-folder.js';
import { bankLine } from '../bills/fixtures.js';
import { runCli } from '../helpers/test-io.js';
import { pdfText } from '../sandbox/pdf-text.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

describe('the receipts folder', () => {
  it('is the profile’s own, or the ledger’s when one is given, under receiptsDir', () => {
    expect(receiptsFolder('/r', { profile: 'default' })).toBe('/r/default');
    expect(receiptsFolder('/r', { profile: 'Conta Real' })).toBe('/r/Conta-Real');
    const a = receiptsFolder('/r', { profile: 'default', ledgerFile: '/x/other.db' });
    expect(a).toMatch(/^\/r\/default--other-[0-9a-f]{8}$/);
    // Two ledgers of the same name in different folders keep apart; the same ledger always lands in the same folder.
    expect(receiptsFolder('/r', { profile: 'default', ledgerFile: '/y/other.db' })).not.toBe(a);
    expect(receiptsFolder('/r', { profile: 'default', ledgerFile: '/x/./other.db' })).toBe(a);
  });

  it('keeps the bill receipts of two profiles and of a ledger given with --ledger apart', async () => {
    const dir = tempDir();
    // A Brazilian user's environment: documents in Portuguese.
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'), LC_ALL: 'pt_BR.UTF-8' };
    writeConfigFile(join(dir, 'config', 'paybatch', 'config.json'), { profiles: { real: {} } });
    const line = bankLine({ amountCents: 15_990, dueDate: '2039-12-31' });
    const pay = async (...flags: string[]) => {
      const r = await runCli(['boleto', 'pay', line, '--yes', '--json', ...flags], { env });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).bills[0].receipt as string;
    };
    const other = join(dir, 'elsewhere', 'other.db');
    const paths = { default: await pay(), real: await pay('--profile', 'real'), other: await pay('--ledger', other) };
    expect(paths.default.startsWith(join(dir, 'receipts', 'default', 'bills') + '/')).toBe(true);
    expect(paths.real.startsWith(join(dir, 'receipts', 'real', 'bills') + '/')).toBe(true);
    expect(paths.other.startsWith(join(receiptsFolder(join(dir, 'receipts'), { profile: 'default', ledgerFile: other }), 'bills') + '/')).toBe(true);
    // Every profile here pays on the embedded sandbox: its bill documents say so. The real clock decides whether the
    // bank window is open (a payment receipt) or not (a scheduling receipt).
    const text = pdfText(readFileSync(paths.real));
    expect(text.split('\n')[0]).toMatch(/^Comprovante de (pagamento de boleto|agendamento)$/);
    expect(text).toContain('SANDBOX - pagamento simulado, nenhum dinheiro foi movimentado');
    expect(readdirSync(join(dir, 'receipts')).sort()).toEqual(['default', expect.stringMatching(/^default--other-[0-9a-f]{8}$/), 'real']);
    // The default ledger named explicitly is the profile's own: the same folder.
    const another = bankLine({ amountCents: 15_990, dueDate: '2039-12-31', tail: '6789' });
    const again = await runCli(['boleto', 'pay', another, '--yes', '--json', '--ledger', join(dir, 'data', 'paybatch', 'ledger.db')], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).bills[0].receipt.startsWith(join(dir, 'receipts', 'default', 'bills') + '/')).toBe(true);
  });
});
