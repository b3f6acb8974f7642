import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch batch approve`, `paybatch batch claim` and `paybatch boleto approve` (their `--key` and `--yes`: approvals.ts). */
export interface ApproveHelp {
  readonly batchApprove: { readonly description: string; readonly id: string; readonly examples: string };
  readonly batchClaim: { readonly description: string; readonly id: string; readonly examples: string };
  readonly boletoApprove: { readonly description: string; readonly code: string; readonly amount: string; readonly examples: string };
}

export const approveHelp: Readonly<Record<Locale, ApproveHelp>> = {
  en: {
    batchApprove: {
      description: "sign a batch's content with your approver key (maker-checker): shows the payments, total and digest, asks, signs",
      id: 'local #id or provider id',
      examples: `
The signature covers every payment's identifier, key, document, amount and destination, and the total: any change
to the batch afterwards voids it. The batch's maker cannot approve it, and each approver counts once.

Examples:
  paybatch batch approve 12
  paybatch batch approve 12 --yes --json
  PAYBATCH_APPROVER_PASSPHRASE=… paybatch batch approve 12 --yes`,
    },
    batchClaim: {
      description: 'sign as the maker of a batch whose maker is not proven (made before makers signed, or its signature erased), so others can approve it',
      id: 'local #id or provider id',
      examples: `
Under an approval policy every import signs its batches with the importer's key. A batch without such a signature
(imported by an earlier paybatch, or whose signature was erased or edited in the ledger) cannot start until a person
with a registered key signs as its maker; that person can then never approve it.

Examples:
  paybatch batch claim 12
  PAYBATCH_APPROVER_PASSPHRASE_FILE=/run/credentials/paybatch/passphrase paybatch batch claim 12 --yes --json`,
    },
    boletoApprove: {
      description: "sign a bill's next payment (line, amount, due date) with your approver key, checked as 'boleto pay' checks it",
      code: 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)',
      amount: 'the amount to be paid, for bills that let the payer choose it (the payment must then give the same)',
      examples: `
An approval is good for one payment of the bill at that amount and due date: paying it again needs a new one.

Examples:
  paybatch boleto approve 23793381286000782713695000063305516560000150000
  paybatch boleto approve 83680000000-9 87450048001-5 23456789012-9 34567890123-1 --yes --json`,
    },
  },
  'pt-BR': {
    batchApprove: {
      description: 'assina o conteúdo de um lote com a sua chave de aprovador (segregação de funções): mostra os pagamentos, o total e o resumo do conteúdo, pergunta e assina',
      id: '#id local ou id no provedor',
      examples: `
A assinatura cobre o identificador, a chave, o documento, o valor e o destino de cada pagamento, e o total: qualquer
mudança posterior no lote a anula. Quem fez o lote não pode aprová-lo, e cada aprovador conta uma vez só.

Exemplos:
  paybatch batch approve 12
  paybatch batch approve 12 --yes --json
  PAYBATCH_APPROVER_PASSPHRASE=… paybatch batch approve 12 --yes`,
    },
    batchClaim: {
      description: 'assina como quem fez um lote cuja autoria não está comprovada (feito antes de haver essa assinatura, ou com ela apagada), para que outros possam aprová-lo',
      id: '#id local ou id no provedor',
      examples: `
Com uma política de aprovação, toda importação assina os seus lotes com a chave de quem importa. Um lote sem essa
assinatura (importado por um paybatch anterior, ou cuja assinatura foi apagada ou alterada no registro local) só
pode ser iniciado depois que uma pessoa com chave registrada assinar como quem o fez; essa pessoa nunca mais
poderá aprová-lo.

Exemplos:
  paybatch batch claim 12
  PAYBATCH_APPROVER_PASSPHRASE_FILE=/run/credentials/paybatch/passphrase paybatch batch claim 12 --yes --json`,
    },
    boletoApprove: {
      description: "assina o próximo pagamento de um boleto (linha, valor, vencimento) com a sua chave de aprovador, conferido como 'boleto pay' confere",
      code: 'a linha digitável de 47/48 dígitos ou o código de barras de 44 dígitos (pontos, espaços e traços permitidos; pode vir em partes)',
      amount: 'o valor a pagar, para boletos em que o pagador escolhe o valor (o pagamento precisa então informar o mesmo)',
      examples: `
Uma aprovação vale para um pagamento do boleto com aquele valor e vencimento: pagá-lo de novo exige outra.

Exemplos:
  paybatch boleto approve 23793381286000782713695000063305516560000150000
  paybatch boleto approve 83680000000-9 87450048001-5 23456789012-9 34567890123-1 --yes --json`,
    },
  },
};
