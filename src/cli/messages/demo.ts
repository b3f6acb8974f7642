import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';

/** What `paybatch demo` says to people (`--json` is not translated). */
export interface DemoMessages {
  folder(dir: string): string;
  following(id: number, items: number, total: string): string;
  readonly title: string;
  readonly rows: string;
  readonly paid: string;
  readonly paidAfterReprocess: string;
  readonly failed: string;
  readonly returnedFinal: string;
  readonly open: string;
  readonly receipts: string;
  /** The receipts of the paid payments: all of them, or how many of the paid are in so far. */
  receiptsIn(count: number, paid: number, dir: string): string;
  /** Receipts of payments returned after they were paid, on their own line so the paid ones add up. */
  readonly otherReceipts: string;
  readonly alerts: string;
  readonly timedOut: string;
}

export const demoMessages: Readonly<Record<Locale, DemoMessages>> = {
  en: {
    folder: (dir) => `Demo folder: ${dir}`,
    following: (id, items, total) => `Batch #${id} started: ${counted('en', items, { one: 'payment', other: 'payments' })}, ${total}. Following them to the end…`,
    title: '\npaybatch demo — SANDBOX, no real money',
    rows: 'rows in the sheet',
    paid: 'paid',
    paidAfterReprocess: '  of which after reprocessing a Pix instability return',
    failed: 'failed at the provider',
    returnedFinal: 'returned for good',
    open: 'still open',
    receipts: 'receipts of the paid',
    receiptsIn: (count, paid, dir) => `${count === paid ? count : `${count} of ${paid}`} in ${dir}`,
    otherReceipts: '  plus receipts of payments returned afterwards',
    alerts: 'alerts for support',
    timedOut: 'the demo stopped at its time limit with payments still open',
  },
  'pt-BR': {
    folder: (dir) => `Pasta da demonstração: ${dir}`,
    following: (id, items, total) => `Lote #${id} iniciado: ${counted('pt-BR', items, { one: 'pagamento', other: 'pagamentos' })}, ${total}. Acompanhando até o fim…`,
    title: '\ndemonstração do paybatch — SANDBOX, sem dinheiro de verdade',
    rows: 'linhas na planilha',
    paid: 'pagos',
    paidAfterReprocess: '  dos quais após reprocessar uma devolução por instabilidade do Pix',
    failed: 'falharam no provedor',
    returnedFinal: 'devolvidos em definitivo',
    open: 'ainda em aberto',
    receipts: 'comprovantes dos pagos',
    receiptsIn: (count, paid, dir) => `${count === paid ? count : `${count} de ${paid}`} em ${dir}`,
    otherReceipts: '  mais comprovantes de pagamentos devolvidos depois',
    alerts: 'alertas para o suporte',
    timedOut: 'a demonstração parou no limite de tempo com pagamentos ainda em aberto',
  },
};
