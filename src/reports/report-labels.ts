import type { Locale } from '../words/locale.js';
import { statusWord } from '../words/status-words.js';

/** The words of a report, per locale: column headings, states, titles. */
export interface ReportLabels {
  readonly title: string;
  readonly columns: {
    readonly line: string;
    readonly name: string;
    readonly document: string;
    readonly key: string;
    readonly amount: string;
    readonly status: string;
    readonly reason: string;
    readonly created: string;
    readonly settled: string;
    readonly endToEndId: string;
    readonly receipt: string;
    /** Where a row sent more than once was paid ("failed in batch #2; paid later in batch #4"). */
    readonly story: string;
  };
  readonly totalsTitle: string;
  readonly total: string;
  readonly count: string;
  readonly batch: string;
  readonly providerId: string;
  readonly generated: string;
  status(state: string): string;
}

export const REPORT_LABELS: Record<Locale, ReportLabels> = {
  'pt-BR': {
    title: 'Extrato consolidado',
    columns: {
      line: 'Linha', name: 'Nome', document: 'Documento', key: 'Chave Pix', amount: 'Valor', status: 'Situação', reason: 'Motivo',
      created: 'Criado em', settled: 'Concluído em', endToEndId: 'Identificador (E2E)', receipt: 'Comprovante', story: 'Histórico',
    },
    totalsTitle: 'Totais por situação',
    total: 'Total',
    count: 'Pagamentos',
    batch: 'Lote',
    providerId: 'Id no provedor',
    generated: 'Gerado em',
    status: (s) => statusWord(s, 'pt-BR'),
  },
  en: {
    title: 'Consolidated statement',
    columns: {
      line: 'Line', name: 'Name', document: 'Document', key: 'Pix key', amount: 'Amount', status: 'Status', reason: 'Reason',
      created: 'Created', settled: 'Settled', endToEndId: 'End-to-end id', receipt: 'Receipt', story: 'Story',
    },
    totalsTitle: 'Totals by status',
    total: 'Total',
    count: 'Payments',
    batch: 'Batch',
    providerId: 'Provider id',
    generated: 'Generated',
    status: (s) => s,
  },
};
