import { localDay } from '../../words/local-time.js';
import type { Locale } from '../../words/locale.js';
import { counted, pluralForm } from '../../words/plural.js';

/** What `batch retry|export`, `report` and `receipts list|open` say to people (`--json` is not translated). */
export interface RetryReportMessages {
  readonly summaryLabels: { readonly from: string; readonly batch: string; readonly payments: string; readonly total: string; readonly largest: string };
  confirmRetry(start: boolean, name: string, count: number, sourceId: number, total: string): string;
  nameWarning(sourceId: number, line: number, sheetName: string, providerName: string): string;
  duplicate(sourceId: number, line: number, key: string, amount: string, batchName: string): string;
  nothingToRetry(sourceId: number): string;
  /** A row not paid again: the provider's record, read just before, shows it `record` (null: does not show it). */
  skipped(sourceId: number, line: number | null, identifier: string, record: string | null): string;
  alreadyRetried(sourceId: number, id: number, name: string, status: string): string;
  retried(created: boolean, id: number, name: string, remoteId: string | null, items: number, total: string, status: string): string;
  startHint(id: number): string;
  exported(rows: number, sourceId: number): string;
  /** Rows left out of an export because only an event said how they ended. */
  unconfirmedLeftOut(rows: number, sourceId: number): string;
  /** A return file written: how many titles, and how many still open (said BD). */
  returnWritten(batchId: number, titles: number, open: number): string;
  noRemittance(batchId: number): string;
  reportWritten(file: string, count: number, total: string, receipts: number | null): string;
  /** A period statement written: its file and its first and last days (YYYY-MM-DD). */
  statementWritten(file: string, from: string, to: string): string;
  /** The identity a statement's totals hold, for Pix or bills: all = paid + failed + returned + open. */
  statementTotals(kind: 'pix' | 'bills', t: readonly { count: number; amount: string }[]): string;
  missingReceipt(path: string, batchId: number): string;
  readonly receiptsHead: readonly string[];
  noReceipts(batchId: number | null): string;
  noReceiptFor(ref: string): string;
  readonly receiptRefHint: string;
  receiptGone(itemId: number, path: string): string;
  fetchAgainHint(batchId: number): string;
  couldNotOpen(viewer: string, error: string): string;
}

export const retryReportMessages: Readonly<Record<Locale, RetryReportMessages>> = {
  en: {
    summaryLabels: { from: 'from batch', batch: 'new batch', payments: 'payments', total: 'total', largest: 'largest' },
    confirmRetry: (start, name, count, sourceId, total) => `${start ? 'Create and start' : 'Create'} batch "${name}" paying again ${counted('en', count, { one: 'row', other: 'rows' })} of batch #${sourceId}, ${total}?`,
    nameWarning: (sourceId, line, sheetName, providerName) => `batch #${sourceId}:${line} name: the sheet says "${sheetName}", the key belongs to "${providerName}"`,
    duplicate: (sourceId, line, key, amount, batchName) => `batch #${sourceId}:${line} key: ${key} was paid ${amount} in "${batchName}" (allowed by --allow-duplicates)`,
    nothingToRetry: (sourceId) => `Batch #${sourceId} has no row left to pay again.`,
    skipped: (sourceId, line, identifier, record) =>
      `Batch #${sourceId}${line === null ? '' : `, line ${line}`} (${identifier}): not paid again — ${record === null ? "the provider's item pages do not show it" : `the provider's record shows it ${record}`}, not failed.`,
    alreadyRetried: (sourceId, id, name, status) => `Batch #${sourceId} has no row left to pay again; its last retry is batch #${id} "${name}" (${status}).`,
    retried: (created, id, name, remoteId, items, total, status) =>
      `✓ ${created ? 'Created' : 'Continued'} batch #${id} "${name}" (${remoteId ?? 'not yet at the provider'}), ${counted('en', items, { one: 'item', other: 'items' })}, ${total}, ${status}.`,
    startHint: (id) => `Start it with: paybatch batch start ${id}`,
    exported: (rows, sourceId) => `${counted('en', rows, { one: 'row', other: 'rows' })} of batch #${sourceId} written as a sheet.`,
    returnWritten: (batchId, titles, open) =>
      `Return file of batch #${batchId}: ${counted('en', titles, { one: 'title', other: 'titles' })}${open ? `, ${open} still open (written BD: write the return again once they end)` : ''}.`,
    unconfirmedLeftOut: (rows, sourceId) =>
      `${counted('en', rows, { one: 'row', other: 'rows' })} left out: only an event says ${pluralForm('en', rows, { one: 'it', other: 'they' })} failed, and the provider may still pay ${pluralForm('en', rows, { one: 'it', other: 'them' })}. Once its item pages confirm (the daemon's next read, or 'paybatch batch show ${sourceId} --refresh'), export again.`,
    noRemittance: (batchId) => `Batch #${batchId} was not imported from a CNAB 240 remittance: it has no return file.`,
    statementWritten: (file, from, to) => `✓ ${file}: statement of ${from} to ${to} (São Paulo days).`,
    statementTotals: (kind, [all, paid, failed, returned, open]) =>
      `  ${kind === 'pix' ? 'Pix' : 'bills'}: ${all!.count} (${all!.amount}) = paid ${paid!.count} (${paid!.amount}) + failed ${failed!.count} (${failed!.amount}) + returned ${returned!.count} (${returned!.amount}) + open ${open!.count} (${open!.amount})`,
    reportWritten: (file, count, total, receipts) => `✓ ${file}: ${counted('en', count, { one: 'payment', other: 'payments' })}, ${total}${receipts === null ? '' : `, ${counted('en', receipts, { one: 'receipt', other: 'receipts' })}`}.`,
    missingReceipt: (path, batchId) => `receipt ${path} is recorded in the ledger but no longer on disk; left out (fetch it again with 'paybatch receipts fetch --batch ${batchId} --again')`,
    receiptsHead: ['item', 'batch', 'line', 'recipient', 'amount', 'status', 'file'],
    noReceipts: (batchId) => `No receipts saved${batchId === null ? '' : ` for batch #${batchId}`} yet. The daemon saves them, or: paybatch receipts fetch`,
    noReceiptFor: (ref) => `No saved receipt for "${ref}" in the ledger.`,
    receiptRefHint: "Name the item by its ledger id, identifier or end-to-end id; see 'paybatch receipts list'.",
    receiptGone: (itemId, path) => `The receipt of item ${itemId} was saved as ${path}, which is no longer there.`,
    fetchAgainHint: (batchId) => `Fetch it again with: paybatch receipts fetch --batch ${batchId} --again`,
    couldNotOpen: (viewer, error) => `could not open it with ${viewer}: ${error}`,
  },
  'pt-BR': {
    summaryLabels: { from: 'do lote', batch: 'novo lote', payments: 'pagamentos', total: 'total', largest: 'maior' },
    confirmRetry: (start, name, count, sourceId, total) => `${start ? 'Criar e iniciar' : 'Criar'} o lote "${name}" pagando de novo ${counted('pt-BR', count, { one: 'linha', other: 'linhas' })} do lote #${sourceId}, ${total}?`,
    nameWarning: (sourceId, line, sheetName, providerName) => `lote #${sourceId}:${line} nome: a planilha diz "${sheetName}", a chave é de "${providerName}"`,
    duplicate: (sourceId, line, key, amount, batchName) => `lote #${sourceId}:${line} chave: ${key} recebeu ${amount} em "${batchName}" (permitido por --allow-duplicates)`,
    nothingToRetry: (sourceId) => `O lote #${sourceId} não tem mais linhas a pagar de novo.`,
    skipped: (sourceId, line, identifier, record) =>
      `Lote #${sourceId}${line === null ? '' : `, linha ${line}`} (${identifier}): não é pago de novo — ${record === null ? 'as páginas de itens do provedor não o mostram' : `o registro do provedor o mostra ${record}`}, não como falha.`,
    alreadyRetried: (sourceId, id, name, status) => `O lote #${sourceId} não tem mais linhas a pagar de novo; a última repetição é o lote #${id} "${name}" (${status}).`,
    retried: (created, id, name, remoteId, items, total, status) =>
      `✓ Lote #${id} "${name}" ${created ? 'criado' : 'retomado'} (${remoteId ?? 'ainda não enviado ao provedor'}), ${counted('pt-BR', items, { one: 'item', other: 'itens' })}, ${total}, ${status}.`,
    startHint: (id) => `Inicie com: paybatch batch start ${id}`,
    exported: (rows, sourceId) => `${counted('pt-BR', rows, { one: 'linha', other: 'linhas' })} do lote #${sourceId} ${pluralForm('pt-BR', rows, { one: 'escrita', other: 'escritas' })} como planilha.`,
    returnWritten: (batchId, titles, open) =>
      `Arquivo retorno do lote #${batchId}: ${counted('pt-BR', titles, { one: 'título', other: 'títulos' })}${open ? `, ${open} ainda em aberto (com BD: gere o retorno de novo quando terminarem)` : ''}.`,
    unconfirmedLeftOut: (rows, sourceId) =>
      `${counted('pt-BR', rows, { one: 'linha ficou', other: 'linhas ficaram' })} de fora: só um evento diz que ${pluralForm('pt-BR', rows, { one: 'falhou', other: 'falharam' })}, e o provedor ainda pode ${pluralForm('pt-BR', rows, { one: 'pagá-la', other: 'pagá-las' })}. Quando as páginas de itens confirmarem (a próxima leitura do daemon, ou 'paybatch batch show ${sourceId} --refresh'), exporte de novo.`,
    noRemittance: (batchId) => `O lote #${batchId} não veio de uma remessa CNAB 240: não tem arquivo retorno.`,
    statementWritten: (file, from, to) => `✓ ${file}: extrato de ${localDay(from, 'pt-BR')} a ${localDay(to, 'pt-BR')} (dias de São Paulo).`,
    statementTotals: (kind, [all, paid, failed, returned, open]) =>
      `  ${kind === 'pix' ? 'Pix' : 'contas'}: ${all!.count} (${all!.amount}) = pagos ${paid!.count} (${paid!.amount}) + falharam ${failed!.count} (${failed!.amount}) + devolvidos ${returned!.count} (${returned!.amount}) + em aberto ${open!.count} (${open!.amount})`,
    reportWritten: (file, count, total, receipts) => `✓ ${file}: ${counted('pt-BR', count, { one: 'pagamento', other: 'pagamentos' })}, ${total}${receipts === null ? '' : `, ${counted('pt-BR', receipts, { one: 'comprovante', other: 'comprovantes' })}`}.`,
    missingReceipt: (path, batchId) => `o comprovante ${path} consta no registro mas não está mais no disco; ficou de fora (busque de novo com 'paybatch receipts fetch --batch ${batchId} --again')`,
    receiptsHead: ['item', 'lote', 'linha', 'recebedor', 'valor', 'situação', 'arquivo'],
    noReceipts: (batchId) => `Nenhum comprovante salvo${batchId === null ? '' : ` do lote #${batchId}`} ainda. O daemon os salva, ou: paybatch receipts fetch`,
    noReceiptFor: (ref) => `Nenhum comprovante salvo para "${ref}" no registro.`,
    receiptRefHint: "Indique o item pelo id no registro, pelo identificador ou pelo end-to-end id; veja 'paybatch receipts list'.",
    receiptGone: (itemId, path) => `O comprovante do item ${itemId} foi salvo como ${path}, que não existe mais.`,
    fetchAgainHint: (batchId) => `Busque de novo com: paybatch receipts fetch --batch ${batchId} --again`,
    couldNotOpen: (viewer, error) => `não foi possível abrir com ${viewer}: ${error}`,
  },
};
