import type { Locale } from '../../words/locale.js';
import { counted, pluralForm } from '../../words/plural.js';

/** What `import` says to people: the sheet's summary, the question, the results (`--json` is not translated). */
export interface ImportMessages {
  resuming(importId: number, batchIds: readonly number[], startedAt: string): string;
  confirm(o: { start: boolean; batchName: string; parts: number; maxBatchItems: number; count: number; total: string }): string;
  readonly summary: {
    readonly sheet: string;
    readonly batch: string;
    readonly rows: string;
    readonly payments: string;
    readonly total: string;
    readonly largest: string;
    readonly asSent: string;
    readonly rejected: string;
    readonly ignored: string;
    readonly layout: string;
    readonly scheduled: string;
    readonly bills: string;
  };
  /** A remittance's bills, left to `boleto pay --file`. */
  billsLeft(file: string, lines: readonly number[]): string;
  /** Named columns paybatch does not read (1-based). */
  ignoredColumns(columns: readonly { column: number; name: string }[]): string;
  /** The largest amount as it goes out to the provider, in the profile's unit. */
  asSent(wire: string | null): string;
  /** A row's field as the engine names it (`key`, `document`, `name`, `amount`) in the run's words; a sheet's own column name stays. */
  field(field: string): string;
  nameWarning(sheetName: string, providerName: string): string;
  duplicateWarning(key: string, amount: string, batchName: string): string;
  checked(file: string, rows: number, count: number, total: string): string;
  readonly dryRun: string;
  /** The word before a batch's line: Imported, Resumed, Already imported. */
  readonly outcome: Readonly<Record<'imported' | 'resumed' | 'already-imported', string>>;
  /** `byDate`: a remittance, cut by its titles' payment dates (and the provider's limit). */
  asBatches(outcome: string, count: number, byDate: boolean): string;
  batchLine(o: { id: number; name: string; remoteId: string | null; items: number; total: string; status: string }): string;
  startIt(id: number): string;
  readonly alreadyImported: string;
  /** The rejected-rows file written, with as many rows as it holds. */
  rejectedFile(file: string, rows: number): string;
}

export const importMessages: Readonly<Record<Locale, ImportMessages>> = {
  en: {
    resuming: (importId, ids, startedAt) =>
      `Resuming import #${importId} (${pluralForm('en', ids.length, { one: 'batch', other: 'batches' })} #${ids.join(', #')}, started ${startedAt}).`,
    confirm: (o) =>
      `${o.start ? 'Create and start' : 'Create'} batch "${o.batchName}"${o.parts > 1 ? ` (sent as ${o.parts} batches, the provider's limit being ${o.maxBatchItems} items)` : ''} paying ${o.count} people ${o.total}?`,
    summary: { sheet: 'sheet', batch: 'batch', rows: 'rows in sheet', payments: 'payments', total: 'total', largest: 'largest', asSent: 'sent as', rejected: 'rejected rows', ignored: 'columns not read', layout: 'CNAB 240 layout', scheduled: 'scheduled for that day', bills: 'bills' },
    billsLeft: (file, lines) => `${counted('en', lines.length, { one: 'bill', other: 'bills' })} (line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}) not imported: pay them with 'paybatch boleto pay --file ${file}'`,
    ignoredColumns: (columns) => `${columns.map((c) => `"${c.name}" (column ${c.column})`).join(', ')}: paybatch does not read ${pluralForm('en', columns.length, { one: 'it', other: 'them' })}`,
    asSent: (wire) => (wire === null ? 'nothing: pixAmountUnit is not set' : wire),
    field: (field) => field,
    nameWarning: (sheetName, providerName) => `the sheet says "${sheetName}", the key belongs to "${providerName}"`,
    duplicateWarning: (key, amount, batchName) => `${key} was paid ${amount} in "${batchName}" (allowed by --allow-duplicates)`,
    checked: (file, rows, count, total) => `✓ ${file}: ${counted('en', rows, { one: 'row passes', other: 'rows pass' })} every offline check; ${counted('en', count, { one: 'payment', other: 'payments' })}, ${total} in all.`,
    dryRun: 'Dry run: nothing was created.',
    outcome: { imported: 'Imported', resumed: 'Resumed', 'already-imported': 'Already imported' },
    asBatches: (outcome, count, byDate) => `${outcome} as ${count} batches (${byDate ? 'one per payment date, within ' : ''}the provider's limit per batch):`,
    batchLine: (o) => `batch #${o.id} "${o.name}" (${o.remoteId ?? 'not yet at the provider'}), ${counted('en', o.items, { one: 'item', other: 'items' })}, ${o.total}, ${o.status}.`,
    startIt: (id) => `Start it with: paybatch batch start ${id}`,
    alreadyImported: 'This sheet was already imported.',
    rejectedFile: (file, rows) => `${counted('en', rows, { one: 'rejected row', other: 'rejected rows' })} written to ${file}`,
  },
  'pt-BR': {
    resuming: (importId, ids, startedAt) =>
      `Retomando a importação #${importId} (${pluralForm('pt-BR', ids.length, { one: 'lote', other: 'lotes' })} #${ids.join(', #')}, iniciada em ${startedAt}).`,
    confirm: (o) =>
      `${o.start ? 'Criar e iniciar' : 'Criar'} o lote "${o.batchName}"${o.parts > 1 ? ` (enviado como ${o.parts} lotes, pois o provedor aceita até ${o.maxBatchItems} itens por lote)` : ''} pagando ${o.total} a ${counted('pt-BR', o.count, { one: 'pessoa', other: 'pessoas' })}?`,
    summary: { sheet: 'planilha', batch: 'lote', rows: 'linhas na planilha', payments: 'pagamentos', total: 'total', largest: 'maior valor', asSent: 'enviado como', rejected: 'linhas rejeitadas', ignored: 'colunas não lidas', layout: 'layout CNAB 240', scheduled: 'agendado para o dia', bills: 'boletos' },
    billsLeft: (file, lines) => `${counted('pt-BR', lines.length, { one: 'boleto', other: 'boletos' })} (linha${lines.length > 1 ? 's' : ''} ${lines.join(', ')}) não importado${lines.length > 1 ? 's' : ''}: pague-os com 'paybatch boleto pay --file ${file}'`,
    ignoredColumns: (columns) => `${columns.map((c) => `"${c.name}" (coluna ${c.column})`).join(', ')}: o paybatch não ${pluralForm('pt-BR', columns.length, { one: 'a lê', other: 'as lê' })}`,
    asSent: (wire) => (wire === null ? 'nada: pixAmountUnit não está definido' : wire),
    field: (field) => ({ key: 'chave', document: 'documento', name: 'nome', amount: 'valor' })[field] ?? field,
    nameWarning: (sheetName, providerName) => `a planilha diz "${sheetName}", a chave pertence a "${providerName}"`,
    duplicateWarning: (key, amount, batchName) => `${key} já recebeu ${amount} em "${batchName}" (permitido por --allow-duplicates)`,
    checked: (file, rows, count, total) => `✓ ${file}: ${counted('pt-BR', rows, { one: 'linha passa', other: 'linhas passam' })} em todas as verificações offline; ${counted('pt-BR', count, { one: 'pagamento', other: 'pagamentos' })}, ${total} no total.`,
    dryRun: 'Simulação: nada foi criado.',
    outcome: { imported: 'Importado', resumed: 'Retomado', 'already-imported': 'Já importado' },
    asBatches: (outcome, count, byDate) => `${outcome} como ${count} lotes (${byDate ? 'um por data de pagamento, dentro d' : ''}o limite do provedor por lote):`,
    batchLine: (o) => `lote #${o.id} "${o.name}" (${o.remoteId ?? 'ainda não enviado ao provedor'}), ${counted('pt-BR', o.items, { one: 'item', other: 'itens' })}, ${o.total}, ${o.status}.`,
    startIt: (id) => `Inicie-o com: paybatch batch start ${id}`,
    alreadyImported: 'Esta planilha já foi importada.',
    rejectedFile: (file, rows) => `${counted('pt-BR', rows, { one: 'linha rejeitada gravada', other: 'linhas rejeitadas gravadas' })} em ${file}`,
  },
};
