import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch boleto` and its commands (`approve` is registered by ../approve.ts). */
export interface BoletoHelp {
  readonly group: string;
  /** The `<line-or-barcode...>` argument of decode, details and pay. */
  readonly code: string;
  readonly decode: { readonly description: string; readonly examples: string };
  readonly details: { readonly description: string; readonly examples: string };
  readonly pay: {
    readonly description: string;
    readonly amount: string;
    readonly file: string;
    /** `--description`. */
    readonly note: string;
    readonly yes: string;
    readonly force: string;
    readonly examples: string;
  };
  readonly export: { readonly description: string; readonly file: string; readonly examples: string };
  readonly list: { readonly description: string; readonly all: string };
  readonly resolve: {
    readonly description: string;
    readonly bill: string;
    readonly paid: string;
    readonly transaction: string;
    readonly notPaid: string;
    readonly yes: string;
    readonly examples: string;
  };
}

export const boletoHelp: Readonly<Record<Locale, BoletoHelp>> = {
  en: {
    group: 'decode, inspect and pay bills (boletos, utility and government bills)',
    code: 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)',
    decode: {
      description: 'decode and check a digit line or barcode offline',
      examples:
        '\nExamples:\n  paybatch boleto decode "23793.38128 60007.827136 95000.063305 5 16560000150000"\n  paybatch boleto decode 83680000000-9 87450048001-5 23456789012-9 34567890123-1 --json',
    },
    details: {
      description: "check a bill offline, then show the provider's details: beneficiary, amount, due date, limits, bank window",
      examples: '\nAn invalid code never reaches the provider (exit 3).\n\nExample:\n  paybatch boleto details 83680000000-9 87450048001-5 23456789012-9 34567890123-1',
    },
    pay: {
      description: 'pay a bill (or every bill of a CSV file): checks offline and with the provider, confirms, pays once',
      amount: "amount to pay, e.g. 159,90: only for bills that let the payer choose it (default: the bill's)",
      file: 'pay every bill of a CSV file (columns code (or codigo, linha), amount (valor, optional), description (descricao, optional)), or the bills (segment J) of a CNAB 240 remittance: those due today paid now, those due later scheduled for their day (the daemon pays them)',
      note: 'a note kept with the payment in the ledger and on the receipt',
      yes: 'do not ask for confirmation (scripts, CI)',
      force: 'pay although the ledger has the bill as paid, scheduled or with an unknown outcome',
      examples: `
Every bill is decoded and checked before anything is paid: check digits, the provider's details (which must agree
with the code), the amount rules and the bank window (business days 08:00-20:00 São Paulo; 22:00 for utility and
government bills; outside it the payment is scheduled). The ledger records each payment before it is sent; a
payment whose answer is lost is recorded as unknown and never retried. Exit 4 when a payment failed or is unknown.

Examples:
  paybatch boleto pay 83680000000-9 87450048001-5 23456789012-9 34567890123-1
  paybatch boleto pay 23793381286000782713695000063305516560000150000 --yes --json
  paybatch boleto pay 23793381286000782713669500006338500000000000000 --amount 1.234,56
  paybatch boleto pay --file contas.csv --yes
  paybatch boleto pay --file contas.csv`,
    },
    export: {
      description: "write the CNAB 240 return file of the bills paid from a remittance ('boleto pay --file REM.rem') on stdout",
      file: 'the remittance the bills were paid from (the same bytes: a copy under another name is the same remittance)',
      examples: `
Each bill of the remittance paid from it, in its order: its own J and J-52 records with the occurrence code of how its
payment ended (00 paid, BD scheduled or not yet known, Z4 refused, ZA returned; Itaú: NR, DV), in the remittance's
layout and encoding. With the cnabReturnDir setting the daemon writes it into that folder once every bill has ended.

Example:
  paybatch boleto export --file REM0112.rem > RET0112-boletos.ret`,
    },
    list: {
      description: 'bills in the ledger: paid, scheduled, unknown and returned, with the date until which a return can arrive',
      all: 'failed payments and unfinished intents too',
    },
    resolve: {
      description: "record what the provider's statement shows for a bill payment whose outcome is unknown",
      bill: 'the bill number (#) of `paybatch boleto list --all`',
      paid: 'the statement shows the payment',
      transaction: "the payment's transaction id in the statement (with --paid)",
      notPaid: 'the statement shows no payment of it: it may then be paid again',
      yes: 'do not ask for confirmation (scripts, CI)',
      examples: `
A payment whose answer was lost, or that a stopped run left unfinished, and whose provider events never came, stays
unknown (bill payments cannot be looked up through the API). Check the provider's statement, then record it:
  paybatch boleto resolve 12 --paid --transaction 9f1c2d
  paybatch boleto resolve 12 --not-paid --yes      # then pay it again: paybatch boleto pay <line>`,
    },
  },
  'pt-BR': {
    group: 'decodifica, inspeciona e paga contas (boletos, contas de consumo e de órgãos públicos)',
    code: 'a linha digitável de 47/48 dígitos ou o código de barras de 44 dígitos (aceita pontos, espaços e traços; pode vir em partes)',
    decode: {
      description: 'decodifica e confere sem rede uma linha digitável ou um código de barras',
      examples:
        '\nExemplos:\n  paybatch boleto decode "23793.38128 60007.827136 95000.063305 5 16560000150000"\n  paybatch boleto decode 83680000000-9 87450048001-5 23456789012-9 34567890123-1 --json',
    },
    details: {
      description: 'confere uma conta sem rede e depois mostra os detalhes do provedor: beneficiário, valor, vencimento, limites, horário bancário',
      examples: '\nUm código inválido nunca chega ao provedor (sai com 3).\n\nExemplo:\n  paybatch boleto details 83680000000-9 87450048001-5 23456789012-9 34567890123-1',
    },
    pay: {
      description: 'paga uma conta (ou todas as contas de um arquivo CSV): confere sem rede e com o provedor, confirma, paga uma única vez',
      amount: 'valor a pagar, p. ex. 159,90: só para contas em que o pagador escolhe o valor (padrão: o da conta)',
      file: 'paga todas as contas de um arquivo CSV (colunas code (ou codigo, linha), amount (valor, opcional), description (descricao, opcional)), ou os boletos (segmento J) de uma remessa CNAB 240: os com data de hoje pagos agora, os com data posterior agendados para o seu dia (o daemon os paga)',
      note: 'uma observação guardada com o pagamento no registro local e no comprovante',
      yes: 'não pede confirmação (scripts, CI)',
      force: 'paga mesmo que o registro local tenha a conta como paga, agendada ou com resultado desconhecido',
      examples: `
Cada conta é decodificada e conferida antes de qualquer pagamento: dígitos verificadores, os detalhes do provedor (que
precisam bater com o código), as regras de valor e o horário bancário (dias úteis das 08:00 às 20:00, horário de São
Paulo; até 22:00 para contas de consumo e de órgãos públicos; fora dele o pagamento é agendado). O registro local grava
cada pagamento antes de enviá-lo; um pagamento cuja resposta se perde fica registrado como desconhecido e nunca é
repetido. Sai com 4 quando um pagamento falhou ou está desconhecido.

Exemplos:
  paybatch boleto pay 83680000000-9 87450048001-5 23456789012-9 34567890123-1
  paybatch boleto pay 23793381286000782713695000063305516560000150000 --yes --json
  paybatch boleto pay 23793381286000782713669500006338500000000000000 --amount 1.234,56
  paybatch boleto pay --file contas.csv --yes
  paybatch boleto pay --file contas.csv`,
    },
    export: {
      description: "escreve na saída o arquivo retorno CNAB 240 dos boletos pagos de uma remessa ('boleto pay --file REM.rem')",
      file: 'a remessa de que os boletos foram pagos (os mesmos bytes: uma cópia com outro nome é a mesma remessa)',
      examples: `
Cada boleto pago da remessa, na ordem dela: os próprios registros J e J-52 com o código de ocorrência de como o
pagamento terminou (00 pago, BD agendado ou ainda não sabido, Z4 recusado, ZA devolvido; Itaú: NR, DV), no layout e na
codificação da remessa. Com a configuração cnabReturnDir o daemon o grava nessa pasta quando todos os boletos terminam.

Exemplo:
  paybatch boleto export --file REM0112.rem > RET0112-boletos.ret`,
    },
    list: {
      description: 'contas no registro local: pagas, agendadas, desconhecidas e devolvidas, com a data até a qual uma devolução pode chegar',
      all: 'também os pagamentos que falharam e as tentativas não concluídas',
    },
    resolve: {
      description: 'registra o que o extrato do provedor mostra para um pagamento de conta com resultado desconhecido',
      bill: 'o número da conta (#) em `paybatch boleto list --all`',
      paid: 'o extrato mostra o pagamento',
      transaction: 'o id da transação do pagamento no extrato (com --paid)',
      notPaid: 'o extrato não mostra pagamento dela: ela pode então ser paga de novo',
      yes: 'não pede confirmação (scripts, CI)',
      examples: `
Um pagamento cuja resposta se perdeu, ou que uma execução interrompida deixou pela metade, e cujos eventos do provedor
nunca chegaram, continua desconhecido (pagamentos de contas não podem ser consultados pela API). Confira o extrato do
provedor e registre o que ele mostra:
  paybatch boleto resolve 12 --paid --transaction 9f1c2d
  paybatch boleto resolve 12 --not-paid --yes      # depois pague de novo: paybatch boleto pay <line>`,
    },
  },
};
