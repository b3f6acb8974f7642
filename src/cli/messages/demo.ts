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
  receiptsIn(count: number, dir: string): string;
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
    receipts: 'receipts saved',
    receiptsIn: (count, dir) => `${count} in ${dir}`,
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
    receipts: 'comprovantes salvos',
    receiptsIn: (count, dir) => `${count} em ${dir}`,
    alerts: 'alertas para o suporte',
    timedOut: 'a demonstração parou no limite de tempo com pagamentos ainda em aberto',
  },
};
