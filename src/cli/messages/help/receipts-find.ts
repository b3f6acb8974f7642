import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch receipts list` and `receipts open`. */
export interface ReceiptsFindHelp {
  readonly list: { readonly description: string; readonly batch: string; readonly examples: string };
  readonly open: { readonly description: string; readonly item: string; readonly print: string; readonly examples: string };
}

export const receiptsFindHelp: Readonly<Record<Locale, ReceiptsFindHelp>> = {
  en: {
    list: {
      description: 'saved receipts, with the payment each one proves',
      batch: 'only this batch (local #id or provider id)',
      examples: '\nExamples:\n  paybatch receipts list\n  paybatch receipts list 3 --json',
    },
    open: {
      description: "print a payment's receipt file, and open it when on a desktop terminal",
      item: 'the item: ledger id, identifier or end-to-end id (see `paybatch batch items` or `receipts list`)',
      print: 'only print the path',
      examples: '\nExamples:\n  paybatch receipts open 42\n  paybatch receipts open E12345678202611231200abcdefghijk --print',
    },
  },
  'pt-BR': {
    list: {
      description: 'os comprovantes salvos, com o pagamento que cada um comprova',
      batch: 'só este lote (#id local ou id no provedor)',
      examples: '\nExemplos:\n  paybatch receipts list\n  paybatch receipts list 3 --json',
    },
    open: {
      description: 'mostra o arquivo do comprovante de um pagamento, e o abre quando o terminal está em um ambiente gráfico',
      item: 'o item: id no registro local, identificador ou end-to-end id (veja `paybatch batch items` ou `receipts list`)',
      print: 'só mostra o caminho',
      examples: '\nExemplos:\n  paybatch receipts open 42\n  paybatch receipts open E12345678202611231200abcdefghijk --print',
    },
  },
};
