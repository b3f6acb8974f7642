import { join } from 'node:path';
import type { PlannedItem } from '../../src/ledger/import-repository.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { updateBatch } from '../../src/ledger/batch-repository.js';

export const destination = {
  accountType: 'checkingAccount', branch: '0001', key: 'k', accountNumber: '123-4', institutionName: 'Banco', document: '***.456.789-**', type: 'email', institution: '00000000', name: 'Ana Souza',
};

export function plannedItem(n: number): PlannedItem {
  return {
    line: n + 1,
    identifier: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    key: `p${n}@example.com`,
    keyType: 'email',
    amountCents: 1000 + n,
    description: `row ${n}`,
    sheetName: null,
    sheetDocument: null,
    destination: { ...destination, key: `p${n}@example.com` },
  };
}

/** A ledger holding one started batch of `n` items in state `submitted` (as after an import with --start). */
export async function ledgerWithStartedBatch(dir: string, n: number, at: Date): Promise<{ ledger: Ledger; batchId: number; identifiers: string[] }> {
  const ledger = await openLedger(join(dir, 'ledger.db'));
  const items = Array.from({ length: n }, (_, i) => plannedItem(i + 1));
  const { batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: n, batchName: 'Folha', itemCount: items.length, items, rejectedCount: 0, now: at });
  await updateBatch(ledger, batchId, { status: 'started', remote_id: 'remote-1', start_requested: 1 }, at);
  sqliteOf(ledger).prepare("UPDATE items SET status = 'submitted', remote_status = 'waiting'").run();
  return { ledger, batchId, identifiers: items.map((i) => i.identifier) };
}
