import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertBillIntent, updateBill } from '../../src/ledger/bill-repository.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

const tempDir = useTempDir();

describe('boleto list and a bill whose outcome is unknown', () => {
  it.each([
    ['pt_BR.UTF-8', 'resultado desconhecido: confira o extrato e rode paybatch boleto resolve 1 --paid (ou --not-paid)'],
    ['en_US.UTF-8', 'outcome unknown: check the statement, then paybatch boleto resolve 1 --paid (or --not-paid)'],
  ])('says, in %s, how to settle it instead of the error the ledger keeps', async (lcAll, note) => {
    const dir = tempDir();
    const file = join(dir, 'ledger.db');
    const ledger = await openLedger(file);
    const id = await ledger.transaction((tx) =>
      insertBillIntent(tx, { barcode: '2'.repeat(44), line: '2'.repeat(47), kind: 'bank', description: 'Luz', beneficiary: 'Companhia de Luz', beneficiaryDocument: null, assignor: null, dueDate: '2026-11-20', amountCents: 15_990, forced: false }, new Date('2026-11-19T12:00:00Z')),
    );
    await updateBill(ledger, id, { status: 'unknown', error: 'the answer to the payment call was lost' }, new Date('2026-11-19T12:00:05Z'));
    await ledger.close();
    const r = await runCli(['--ledger', file, 'boleto', 'list'], { env: { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir, LC_ALL: lcAll } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(note);
    expect(r.stdout).not.toContain('the answer to the payment call was lost');
  });
});
