import type { Locale } from '../words/locale.js';
import { localDay } from '../words/local-time.js';
import type { Outcome } from './period-statement.js';

/** The words of a period statement, per locale: titles, column headings, outcomes and the totals' identity. */
export interface StatementLabels {
  readonly title: string;
  readonly period: (from: string, to: string) => string;
  readonly profile: string;
  readonly payer: string;
  /** Where the payer's name or document is not set in the profile. */
  readonly unset: string;
  readonly generated: string;
  readonly pixTitle: string;
  readonly billsTitle: string;
  readonly totalsTitle: string;
  readonly kind: { readonly pix: string; readonly bill: string };
  readonly columns: {
    readonly kind: string;
    readonly batch: string;
    readonly line: string;
    readonly payee: string;
    readonly document: string;
    readonly key: string;
    readonly amount: string;
    readonly outcome: string;
    readonly status: string;
    readonly reason: string;
    readonly sent: string;
    readonly paid: string;
    readonly returned: string;
    readonly failed: string;
    /** The day a payment reached its final state (paid, returned or failed). */
    readonly settled: string;
    readonly endToEndId: string;
    readonly lineage: string;
    readonly beneficiary: string;
    readonly description: string;
    readonly typeableLine: string;
    readonly due: string;
    readonly original: string;
    readonly discount: string;
    readonly interest: string;
    readonly fine: string;
    readonly paidAmount: string;
    readonly transactionId: string;
  };
  /** A row's outcome, and the totals' columns (plural). */
  readonly outcome: Readonly<Record<Outcome, string>>;
  readonly outcomes: Readonly<Record<Outcome | 'all', string>>;
  readonly count: string;
  /** The identity the totals prove, in words: imported = paid + failed + returned + open. */
  readonly identity: string;
  /** OFX: why the statement has no ledger balance. */
  readonly noBalance: string;
}

export const STATEMENT_LABELS: Readonly<Record<Locale, StatementLabels>> = {
  'pt-BR': {
    title: 'Extrato do período',
    period: (from, to) => `Período de ${localDay(from, 'pt-BR')} a ${localDay(to, 'pt-BR')}`,
    profile: 'Perfil',
    payer: 'Pagador',
    unset: '(não configurado)',
    generated: 'Gerado em',
    pixTitle: 'Pagamentos Pix',
    billsTitle: 'Contas (boletos)',
    totalsTitle: 'Totais',
    kind: { pix: 'Pix', bill: 'Boleto' },
    columns: {
      kind: 'Tipo', batch: 'Lote', line: 'Linha', payee: 'Favorecido', document: 'Documento', key: 'Chave Pix', amount: 'Valor',
      outcome: 'Resultado', status: 'Situação', reason: 'Motivo', sent: 'Enviado em', paid: 'Pago em', returned: 'Devolvido em',
      failed: 'Falhou em', settled: 'Concluído em', endToEndId: 'Identificador (E2E)', lineage: 'Histórico', beneficiary: 'Beneficiário', description: 'Descrição',
      typeableLine: 'Linha digitável', due: 'Vencimento', original: 'Valor original', discount: 'Desconto', interest: 'Juros', fine: 'Multa',
      paidAmount: 'Valor pago', transactionId: 'Id da transação',
    },
    outcome: { paid: 'pago', failed: 'falhou', returned: 'devolvido', open: 'em aberto' },
    outcomes: { all: 'importados', paid: 'pagos', failed: 'falharam', returned: 'devolvidos', open: 'em aberto' },
    count: 'Quantidade',
    identity: 'importados = pagos + falharam + devolvidos + em aberto',
    noBalance: 'Saldo omitido: nenhum evento do provedor no período informou o saldo da conta.',
  },
  en: {
    title: 'Statement of the period',
    period: (from, to) => `Period ${from} to ${to}`,
    profile: 'Profile',
    payer: 'Payer',
    unset: '(not set)',
    generated: 'Generated',
    pixTitle: 'Pix payments',
    billsTitle: 'Bills',
    totalsTitle: 'Totals',
    kind: { pix: 'Pix', bill: 'Bill' },
    columns: {
      kind: 'Kind', batch: 'Batch', line: 'Line', payee: 'Payee', document: 'Document', key: 'Pix key', amount: 'Amount',
      outcome: 'Outcome', status: 'Status', reason: 'Reason', sent: 'Sent', paid: 'Paid', returned: 'Returned',
      failed: 'Failed', settled: 'Settled', endToEndId: 'End-to-end id', lineage: 'Lineage', beneficiary: 'Beneficiary', description: 'Description',
      typeableLine: 'Typeable line', due: 'Due', original: 'Original amount', discount: 'Discount', interest: 'Interest', fine: 'Fine',
      paidAmount: 'Paid amount', transactionId: 'Transaction id',
    },
    outcome: { paid: 'paid', failed: 'failed', returned: 'returned', open: 'open' },
    outcomes: { all: 'imported', paid: 'paid', failed: 'failed', returned: 'returned', open: 'open' },
    count: 'Count',
    identity: 'imported = paid + failed + returned + open',
    noBalance: 'Balance omitted: no provider event in the period carried the account balance.',
  },
};
