import type { Locale } from '../words/locale.js';
import { statusWord } from '../words/status-words.js';
import type { Lineage, RowPayment } from './period-statement.js';

interface LineageWords {
  /** The row's first payment: `pago no lote #1`, `falhou no lote #2`. */
  readonly first: (status: string, batch: number) => string;
  /** A `batch retry` of it. */
  readonly retryPaid: (batch: number) => string;
  readonly retry: (status: string, batch: number) => string;
  /** A payment paybatch made again after a Pix instability returned the row. */
  readonly reprocessPaid: (batch: number) => string;
  readonly reprocess: (status: string, batch: number) => string;
}

const WORDS: Readonly<Record<Locale, LineageWords>> = {
  'pt-BR': {
    first: (s, b) => `${statusWord(s, 'pt-BR')} no lote #${b}`,
    retryPaid: (b) => `pago depois no lote #${b}`,
    retry: (s, b) => `nova tentativa no lote #${b}: ${statusWord(s, 'pt-BR')}`,
    reprocessPaid: (b) => `reprocessado e pago no lote #${b}`,
    reprocess: (s, b) => `reprocessado no lote #${b}: ${statusWord(s, 'pt-BR')}`,
  },
  en: {
    first: (s, b) => `${s} in batch #${b}`,
    retryPaid: (b) => `paid later in batch #${b}`,
    retry: (s, b) => `retried in batch #${b}: ${s}`,
    reprocessPaid: (b) => `reprocessed and paid in batch #${b}`,
    reprocess: (s, b) => `reprocessed in batch #${b}: ${s}`,
  },
};

function step(p: RowPayment, words: LineageWords): string {
  if (p.kind === 'sheet') return words.first(p.status, p.batchId);
  if (p.kind === 'retry') return p.status === 'paid' ? words.retryPaid(p.batchId) : words.retry(p.status, p.batchId);
  return p.status === 'paid' ? words.reprocessPaid(p.batchId) : words.reprocess(p.status, p.batchId);
}

/**
 * A sheet row's story in words, each payment in order: "falhou no lote #2; pago depois no lote #4",
 * "devolvido no lote #2; reprocessado e pago no lote #3". A row with one payment says where it stands. Plain
 * punctuation only: the PDF's standard fonts have no arrows.
 */
export function lineageText(lineage: Lineage, locale: Locale): string {
  return lineage.payments.map((p) => step(p, WORDS[locale])).join('; ');
}
