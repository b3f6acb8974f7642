import { afterEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { updateItem, type ItemRow } from '../../src/ledger/item-repository.js';
import type { Ledger } from '../../src/ledger/open-ledger.js';
import { recordRetryBatch } from '../../src/ledger/retry-store.js';
import { lineageText } from '../../src/reports/lineage-words.js';
import { statementRenderer } from '../../src/reports/statement-renderer.js';
import type { DashboardReports } from '../../src/ui/dashboard-server.js';

/** The token and the address a dashboard is served at in these tests. */
export const TOKEN = 'the-token-printed-at-start-0123456789abcdef';
export const HOST = '127.0.0.1:8788';

/** What a test opens (ledgers, apps): closed after it, the last opened first. */
export function useOpened(): { close(): Promise<void> }[] {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const x of opened.splice(0).reverse()) await x.close();
  });
  return opened;
}

/** The reports layer as the CLI gives it to the dashboard. */
export const REPORTS: DashboardReports = { lineageText, renderStatement: (statement, format, locale) => statementRenderer(format, locale).render(statement) };

export const AT = '2026-11-23T15:04:00.000Z'; // 12:04 in São Paulo
/** Secrets that must never reach a page, planted where a careless read model would pick them up. */
export const PLANTED_SECRETS = ['Bearer sk_live_planted_value', 'client-secret-planted-value'];
/** What a key lookup answered, but the key and the document. */
const LOOKUP = { accountType: 'checking', branch: '0001', accountNumber: '12345-6', institutionName: 'Banco Exemplo', type: 'email', institution: '12345678', name: '' };

/**
 * A ledger with one started batch of four items (lines 2–5: two paid, one failed, one processing), a receipt file
 * for line 2, an open alert, a paid bill with its document, and the batch's provider calls. Documents as they come:
 * Ana's and Carla's CPFs from the sheet, Bruno's (hidden) and Dora's company CNPJ from the key lookup only.
 */
export async function seedDashboardLedger(ledger: Ledger, dir: string): Promise<{ receipt: string; billDocument: string }> {
  const receipt = join(dir, 'receipt-ana.pdf');
  writeFileSync(receipt, '%PDF-1.4 receipt of Ana\n%%EOF\n');
  const billDocument = join(dir, 'bill-1.pdf');
  writeFileSync(billDocument, '%PDF-1.4 bill receipt\n%%EOF\n');
  await ledger.run(ledger.db.insertInto('imports').values({ id: 1, file_hash: 'h', file_name: 'folha.csv', row_count: 4, item_count: 4, rejected_count: 0, created_at: AT }));
  await ledger.run(
    ledger.db.insertInto('batches').values({
      id: 1, import_id: 1, kind: 'sheet', name: 'Folha de novembro', remote_name: 'Folha de novembro [pb:1]', remote_id: 'remote-1', status: 'started',
      item_count: 4, total_cents: 123_456 + 5_000 + 99_999 + 10, created_at: AT, updated_at: AT, started_at: AT,
    }),
  );
  const item = (
    id: number,
    o: { name: string; key: string; document: string | null; cents: number; status: 'paid' | 'failed' | 'processing'; receipt?: string; paidAt?: string; lookup?: string; reason?: string },
  ) =>
    ledger.run(
      ledger.db.insertInto('items').values({
        id, batch_id: 1, line: id + 1, identifier: `00000000-0000-4000-8000-00000000000${id}`, key: o.key, key_type: 'email', amount_cents: o.cents,
        description: `row ${id}`, sheet_name: o.name, sheet_document: o.document, status: o.status, receipt_path: o.receipt ?? null, reason: o.reason ?? null,
        destination_json: o.lookup === undefined ? null : JSON.stringify({ ...LOOKUP, key: o.key, document: o.lookup }),
        created_at: AT, updated_at: AT, status_changed_at: o.paidAt ?? AT, alerted_at: null,
      }),
    );
  await item(1, { name: 'Ana Souza', key: 'ana@exemplo.com.br', document: '529.982.247-25', cents: 123_456, status: 'paid', receipt, paidAt: '2026-11-23T15:05:00.000Z' });
  await item(2, { name: 'Bruno Lima', key: 'bruno@exemplo.com.br', document: null, cents: 5_000, status: 'failed', lookup: '***.123.456-**', reason: 'AC06 - Conta do recebedor bloqueada' });
  await item(3, { name: 'Carla Dias', key: 'carla@exemplo.com.br', document: '111.444.777-35', cents: 99_999, status: 'processing' });
  await item(4, { name: 'Dora_100%', key: 'dora@exemplo.com.br', document: null, cents: 10, status: 'paid', paidAt: '2026-11-23T15:07:00.000Z', lookup: '12345678000195' });
  await ledger.run(
    ledger.db.insertInto('alerts').values({
      id: 1, kind: 'failures', fingerprint: 'f', title: 'Payments failed', summary: 'Some payments failed.', created_at: AT, last_sent_at: AT, acked_at: null,
      items_json: JSON.stringify([{ identifier: 'x', batch: 'Folha de novembro', line: 3, key: 'bruno@exemplo.com.br', amountCents: 5_000, status: 'failed', lastUpdate: AT, recipient: 'Bruno Lima' }]),
      channels_json: JSON.stringify([{ channel: 'webhook', ok: false, error: PLANTED_SECRETS[0] }]),
    }),
  );
  await ledger.run(
    ledger.db.insertInto('bills').values({
      id: 1, barcode: '8'.repeat(44), line: '8'.repeat(48), kind: 'collection', description: 'Luz', beneficiary: 'Companhia de Luz', beneficiary_document: null,
      assignor: null, due_date: '2026-11-30', amount_cents: 8_745, status: 'paid', remote_status: 'paid', transaction_id: 't1', settle_date: '2026-11-23',
      amount_paid_cents: 8_745, result_json: null, return_reason: null, return_meaning: null, returned_at: null, receipt_path: billDocument, error: null,
      alerted_at: null, created_at: AT, updated_at: AT, document_kind: 'payment',
    }),
  );
  await ledger.run(
    ledger.db.insertInto('provider_calls').values([
      { id: 1, phase: 'intent', intent_id: null, operation: 'create_batch', subject: 'batch:1', outcome: null, created_at: AT,
        detail_json: JSON.stringify({ name: 'Folha de novembro [pb:1]', authorization: PLANTED_SECRETS[0] }) },
      { id: 2, phase: 'outcome', intent_id: 1, operation: 'create_batch', subject: 'batch:1', outcome: 'ok', created_at: AT,
        detail_json: JSON.stringify({ remoteId: 'remote-1', created: { id: 'remote-1', auth: { clientSecret: PLANTED_SECRETS[1] } } }) },
      { id: 3, phase: 'intent', intent_id: null, operation: 'add_items', subject: 'batch:1', outcome: null, created_at: AT,
        detail_json: JSON.stringify({ remoteId: 'remote-1', identifiers: ['a', 'b', 'c', 'd'] }) },
    ]),
  );
  return { receipt, billDocument };
}


/** Bruno's failed payment (batch #1, line 3) paid later by `batch retry`: batch #2 (a draft, as written), item 5. */
export async function seedRetryOfBruno(ledger: Ledger): Promise<void> {
  const failed = (await ledger.first(ledger.db.selectFrom('items').selectAll().where('id', '=', 2))) as ItemRow;
  await ledger.transaction((tx) =>
    recordRetryBatch(tx, {
      sourceBatchId: 1, statuses: ['failed'], name: 'Folha de novembro retry 2026-11-24', start: false, at: new Date('2026-11-24T12:00:00Z'),
      items: [{ from: { item: failed, rootId: 2, retries: 0 }, identifier: 'retry-bruno', destination: { ...JSON.parse(failed.destination_json!), key: failed.key } }],
    }),
  );
  await updateItem(ledger, 5, { status: 'paid', status_changed_at: '2026-11-24T13:00:00.000Z', updated_at: '2026-11-24T13:00:00.000Z' });
}
