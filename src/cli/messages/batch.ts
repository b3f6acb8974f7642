import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';

/** What `batch list|show|items|start|delete` say to people (the `--json` documents are not translated). */
export interface BatchMessages {
  readonly noBatches: string;
  /** Headers of `batch list`; `created` is labelled with the time zone. */
  listHead(zone: string): readonly string[];
  title(id: number, name: string, status: string, remoteId: string | null): string;
  partOf(index: number, parts: number, importId: number | null): string;
  readonly partsHead: readonly string[];
  readonly progressHead: readonly string[];
  refreshed(seen: number, changed: number): string;
  readonly callsTitle: string;
  callsHead(zone: string): readonly string[];
  readonly itemsHead: readonly string[];
  /** The heading of the items' column that tells each row's story (where it was paid again). */
  readonly storyHead: string;
  /**
   * How the batch's sheet rows ended wherever they were paid: paid here, paid later by other batches (`elsewhere`,
   * amounts already formatted), and what is left; shown when a row of it was sent more than once.
   */
  lineage(o: { rows: number; paidHere: number; elsewhere: readonly { batchId: number; count: number; amount: string }[]; failed: number; returned: number; open: number }): string;
  unknownStatus(identifier: string, status: string): string;
  alreadyStatus(id: number, status: string): string;
  confirmStart(id: number, name: string, items: number, total: string): string;
  started(id: number, remoteId: string | null): string;
  confirmDelete(id: number, name: string): string;
  deleted(id: number): string;
  noSuchBatch(ref: string, ledgerFile: string): string;
  readonly listHint: string;
  /** The state of a batch that waits for approvals before it may start. */
  readonly awaitingApproval: string;
  /** The state of a batch `import --pay-on` scheduled; `payOn` is `YYYY-MM-DD`. */
  scheduledFor(payOn: string): string;
}

export const batchMessages: Readonly<Record<Locale, BatchMessages>> = {
  en: {
    noBatches: 'No batches yet. Import a sheet with: paybatch import <sheet.csv>',
    listHead: (zone) => ['#', 'provider id', 'name', 'status', 'items', 'total', `created (${zone})`],
    title: (id, name, status, remoteId) => `Batch #${id} "${name}" — ${status}${remoteId ? ` — provider id ${remoteId}` : ''}`,
    partOf: (index, parts, importId) => `Part ${index} of ${parts} of import #${importId} (the sheet has more items than the provider takes in one batch):`,
    partsHead: ['#', 'part', 'status', 'items'],
    progressHead: ['status', 'items', 'sum'],
    refreshed: (seen, changed) => `Refreshed from the provider: ${counted('en', seen, { one: 'item', other: 'items' })} seen, ${changed} changed.`,
    callsTitle: '\nProvider calls that move money (intent before, outcome after):',
    callsHead: (zone) => [`time (${zone})`, 'phase', 'operation', 'outcome'],
    itemsHead: ['line', 'key', 'recipient', 'amount', 'status', 'note'],
    storyHead: 'story',
    lineage: (o) =>
      [
        `Rows: ${o.rows} — paid here ${o.paidHere}`,
        ...o.elsewhere.map((e) => `paid later in batch #${e.batchId}: ${e.count} (${e.amount})`),
        ...(o.failed ? [`failed ${o.failed}`] : []),
        ...(o.returned ? [`returned ${o.returned}`] : []),
        ...(o.open ? [`open ${o.open}`] : []),
      ].join('; ') + '.',
    unknownStatus: (identifier, status) => `item ${identifier}: the provider says "${status}", a status paybatch does not know (kept as is)`,
    alreadyStatus: (id, status) => `Batch #${id} is already ${status}.`,
    confirmStart: (id, name, items, total) => `Start batch #${id} "${name}": ${counted('en', items, { one: 'payment', other: 'payments' })}, ${total}?`,
    started: (id, remoteId) => `✓ Batch #${id} started (${remoteId}).`,
    confirmDelete: (id, name) => `Delete batch #${id} "${name}" at the provider?`,
    deleted: (id) => `✓ Batch #${id} deleted.`,
    noSuchBatch: (ref, file) => `No batch "${ref}" in the ledger ${file}.`,
    listHint: "See 'paybatch batch list'.",
    awaitingApproval: 'awaiting approval',
    scheduledFor: (payOn) => `scheduled for ${payOn}`,
  },
  'pt-BR': {
    noBatches: 'Nenhum lote ainda. Importe uma planilha com: paybatch import <planilha.csv>',
    listHead: (zone) => ['#', 'id no provedor', 'nome', 'situação', 'itens', 'total', `criado (${zone})`],
    title: (id, name, status, remoteId) => `Lote #${id} "${name}" — ${status}${remoteId ? ` — id no provedor ${remoteId}` : ''}`,
    partOf: (index, parts, importId) =>
      `Parte ${index} de ${parts} da importação #${importId} (a planilha tem mais itens do que o provedor aceita em um lote):`,
    partsHead: ['#', 'parte', 'situação', 'itens'],
    progressHead: ['situação', 'itens', 'soma'],
    refreshed: (seen, changed) => `Atualizado pelo provedor: ${counted('pt-BR', seen, { one: 'item visto', other: 'itens vistos' })}, ${counted('pt-BR', changed, { one: 'alterado', other: 'alterados' })}.`,
    callsTitle: '\nChamadas ao provedor que movem dinheiro (intenção antes, resultado depois):',
    callsHead: (zone) => [`hora (${zone})`, 'fase', 'operação', 'resultado'],
    itemsHead: ['linha', 'chave', 'recebedor', 'valor', 'situação', 'observação'],
    storyHead: 'histórico',
    lineage: (o) =>
      [
        `Linhas: ${o.rows} — pagas aqui ${o.paidHere}`,
        ...o.elsewhere.map((e) => `pagas depois no lote #${e.batchId}: ${e.count} (${e.amount})`),
        ...(o.failed ? [`falharam ${o.failed}`] : []),
        ...(o.returned ? [`devolvidas ${o.returned}`] : []),
        ...(o.open ? [`em aberto ${o.open}`] : []),
      ].join('; ') + '.',
    unknownStatus: (identifier, status) => `item ${identifier}: o provedor diz "${status}", uma situação que o paybatch não conhece (mantida como está)`,
    alreadyStatus: (id, status) => `O lote #${id} já está ${status}.`,
    confirmStart: (id, name, items, total) => `Iniciar o lote #${id} "${name}": ${counted('pt-BR', items, { one: 'pagamento', other: 'pagamentos' })}, ${total}?`,
    started: (id, remoteId) => `✓ Lote #${id} iniciado (${remoteId}).`,
    confirmDelete: (id, name) => `Excluir o lote #${id} "${name}" no provedor?`,
    deleted: (id) => `✓ Lote #${id} excluído.`,
    noSuchBatch: (ref, file) => `Não há lote "${ref}" no registro local ${file}.`,
    listHint: "Veja 'paybatch batch list'.",
    awaitingApproval: 'aguardando aprovação',
    scheduledFor: (payOn) => `agendado p/ ${payOn.slice(8, 10)}/${payOn.slice(5, 7)}`,
  },
};
