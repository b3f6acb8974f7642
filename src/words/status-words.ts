import type { Locale } from './locale.js';

/**
 * Status words of items, batches and bills as people read them — on screen, in alerts and in reports alike. The
 * ledger and `--json` keep the English words; a word not in the table (a provider's own) is shown as it is.
 */
const PT_BR: Readonly<Record<string, string>> = {
  // items
  resolved: 'pronto para envio',
  submitted: 'enviado',
  processing: 'em processamento',
  paid: 'pago',
  failed: 'falhou',
  returned: 'devolvido',
  // batches
  draft: 'rascunho',
  created: 'criado',
  started: 'iniciado',
  settled: 'concluído',
  deleted: 'excluído',
  // bills
  intent: 'em envio',
  scheduled: 'agendado',
  unknown: 'desconhecido',
  pending: 'pendente',
};

export function statusWord(status: string, locale: Locale): string {
  return locale === 'pt-BR' ? (PT_BR[status] ?? status) : status;
}
