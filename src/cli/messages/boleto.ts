import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';

/**
 * The frame of `boleto list|details|pay|decode|resolve` for people: headers, labels, questions, results. The bill
 * texts inside (refusals, warnings, outcomes) are in bill-messages.ts; `--json` is not translated.
 */
export interface BoletoMessages {
  readonly noBills: string;
  readonly listHead: readonly string[];
  /** The bill's current document (`boleto list`). */
  readonly documents: Readonly<Record<'scheduling' | 'payment' | 'return', string>>;
  returnNote(reason: string | null, meaning: string | null): string;
  /** The note of a bill whose payment's outcome is unknown (its answer was lost): how to settle it. */
  unknownNote(billId: number): string;
  readonly fieldValue: readonly [string, string];
  readonly decode: {
    readonly valid: string;
    readonly yes: string;
    invalid(error: string): string;
    readonly kind: string;
    readonly bankSlip: string;
    readonly collectionSlip: string;
    readonly line: string;
    readonly barcode: string;
    readonly bank: string;
    readonly segment: string;
    readonly company: string;
    readonly referenceValue: string;
    readonly amount: string;
    readonly payerSupplies: string;
    readonly dueDate: string;
    readonly unknown: string;
    readonly none: string;
  };
  readonly details: {
    readonly notACode: string;
    readonly noDetails: string;
    readonly kind: string;
    readonly line: string;
    readonly beneficiary: string;
    readonly beneficiaryDocument: string;
    readonly assignor: string;
    readonly amountDue: string;
    readonly chosenByPayer: string;
    readonly originalAmount: string;
    readonly discount: string;
    readonly interest: string;
    readonly minMax: string;
    readonly canChange: string;
    readonly yes: string;
    readonly no: string;
    readonly dueDate: string;
    readonly settleDate: string;
    readonly bankWindow: string;
    readonly mustNotPay: string;
  };
  readonly pay: {
    readonly beneficiary: string;
    readonly kind: string;
    readonly line: string;
    readonly amount: string;
    readonly dueDate: string;
    readonly when: string;
    readonly description: string;
    readonly planHead: readonly string[];
    scheduledFor(day: string): string;
    readonly now: string;
    planTotal(count: number, total: string): string;
    againWithForce(previous: string): string;
    confirmOne(amount: string, beneficiary: string, document: string, when: string): string;
    confirmMany(count: number, total: string, later: number): string;
    readonly theBeneficiary: string;
    readonly noDocument: string;
    leftOut(where: string, why: string): string;
    readonly nothingToPay: string;
    /** A remittance's bill for a later day, in the plan (`where` is file:line). */
    laterLine(where: string, amount: string, day: string): string;
    confirmSchedules(count: number, total: string): string;
    /** Said inside the payment's question when the file also schedules bills. */
    andSchedule(count: number, total: string): string;
    scheduled(where: string, amount: string, day: string): string;
    alreadyScheduled(where: string, day: string): string;
    receipt(path: string): string;
    stopped(count: number, lines: readonly (number | undefined)[]): string;
    readonly settleFirst: string;
    progress(index: number, total: number, where: string, status: string, message: string): string;
  };
  readonly resolve: {
    what(id: number, amount: string, beneficiary: string | null, line: string): string;
    confirmNotPaid(what: string): string;
    readonly nothing: string;
    paid(what: string, transactionId: string | null): string;
    notPaid(what: string): string;
  };
  /** `boleto export --file`: the bills' return file written on stdout. */
  returnWritten(file: string, titles: number, open: number): string;
}

export const boletoMessages: Readonly<Record<Locale, BoletoMessages>> = {
  en: {
    noBills: 'No bills yet. Pay one with: paybatch boleto pay <line-or-barcode>',
    listHead: ['#', 'status', 'beneficiary', 'amount', 'due', 'settle', 'return possible until', 'transaction', 'document', 'note'],
    documents: { scheduling: 'scheduling receipt', payment: 'payment receipt', return: 'return notice' },
    returnNote: (reason, meaning) => `${reason ?? '?'} → ${meaning ?? 'reason not in the table'}`,
    unknownNote: (id) => `outcome unknown: check the statement, then paybatch boleto resolve ${id} --paid (or --not-paid)`,
    fieldValue: ['field', 'value'],
    decode: {
      valid: 'valid',
      yes: 'yes',
      invalid: (error) => `no: ${error}`,
      kind: 'kind',
      bankSlip: 'bank slip',
      collectionSlip: 'collection slip (utility/government)',
      line: 'line',
      barcode: 'barcode',
      bank: 'bank',
      segment: 'segment',
      company: 'company',
      referenceValue: 'reference value',
      amount: 'amount',
      payerSupplies: 'payer supplies the amount',
      dueDate: 'due date',
      unknown: 'unknown',
      none: 'none',
    },
    details: {
      notACode: 'This is not a valid bill code; nothing was sent to the provider.',
      noDetails: 'The provider cannot give the details of this bill.',
      kind: 'kind',
      line: 'line',
      beneficiary: 'beneficiary',
      beneficiaryDocument: 'beneficiary document',
      assignor: 'assignor',
      amountDue: 'amount due',
      chosenByPayer: 'chosen by the payer',
      originalAmount: 'original amount',
      discount: 'discount',
      interest: 'interest and fines',
      minMax: 'minimum / maximum',
      canChange: 'amount can change',
      yes: 'yes',
      no: 'no',
      dueDate: 'due date',
      settleDate: 'settle date (provider)',
      bankWindow: 'bank window',
      mustNotPay: 'This bill must not be paid as typed: nothing was paid.',
    },
    pay: {
      beneficiary: 'beneficiary',
      kind: 'kind',
      line: 'line',
      amount: 'amount',
      dueDate: 'due date',
      when: 'when',
      description: 'description',
      planHead: ['line', 'beneficiary', 'amount', 'due', 'when'],
      scheduledFor: (day) => `scheduled for ${day}`,
      now: 'now',
      planTotal: (count, total) => `${counted('en', count, { one: 'bill', other: 'bills' })}, total ${total}.`,
      againWithForce: (previous) => `the ledger already has this bill as ${previous}; paying it again because of --force`,
      confirmOne: (amount, beneficiary, document, when) => `Pay ${amount} to ${beneficiary} (${document}), ${when}?`,
      confirmMany: (count, total, later) => `Pay ${counted('en', count, { one: 'bill', other: 'bills' })} totalling ${total}${later ? ` (${later} scheduled for the next bank window)` : ''}?`,
      theBeneficiary: 'the beneficiary',
      noDocument: 'no document',
      leftOut: (where, why) => `- ${where} left out: ${why}`,
      nothingToPay: 'Nothing to pay: every bill of the file is already paid or scheduled in the ledger.',
      laterLine: (where, amount, day) => `${where}  ${amount}  scheduled for ${day}: the daemon pays it on that day`,
      confirmSchedules: (count, total) => `Schedule ${counted('en', count, { one: 'bill', other: 'bills' })} totalling ${total} for the day the remittance asks?`,
      andSchedule: (count, total) => `, and schedule ${counted('en', count, { one: 'bill', other: 'bills' })} totalling ${total} for a later day`,
      scheduled: (where, amount, day) => `${where} ${amount} scheduled for ${day}: the daemon pays it on that day`,
      alreadyScheduled: (where, day) => `- ${where} already scheduled for ${day}: not scheduled again`,
      receipt: (path) => `  receipt: ${path}`,
      stopped: (count, lines) => `Stopped after an unknown outcome: ${counted('en', count, { one: 'bill was', other: 'bills were' })} not sent (${lines.map((l) => `line ${l}`).join(', ')}).`,
      settleFirst:
        'Settle the unknown payment first (see above), then run the same file again: bills the ledger has as paid are left out, so only the rest is paid.',
      progress: (index, total, where, status, message) => `[${index}/${total}] ${where} ${status}: ${message}`,
    },
    resolve: {
      what: (id, amount, beneficiary, line) => `bill #${id} (${amount} to ${beneficiary ?? 'the beneficiary'}, line ${line})`,
      confirmNotPaid: (what) => `Record ${what} as NOT paid? It may then be paid again.`,
      nothing: 'Nothing recorded.',
      paid: (what, tx) => `✓ Recorded ${what} as paid${tx ? ` (transaction ${tx})` : ''}.`,
      notPaid: (what) => `✓ Recorded ${what} as not paid; it may be paid again.`,
    },
    returnWritten: (file, titles, open) =>
      `Return file of the bills of ${file}: ${counted('en', titles, { one: 'bill', other: 'bills' })}${open ? `, ${open} still open (written BD: write the return again once they end)` : ''}.`,
  },
  'pt-BR': {
    noBills: 'Nenhuma conta ainda. Pague uma com: paybatch boleto pay <linha-ou-código-de-barras>',
    listHead: ['#', 'situação', 'beneficiário', 'valor', 'vencimento', 'liquidação', 'devolução possível até', 'transação', 'documento', 'observação'],
    documents: { scheduling: 'comprovante de agendamento', payment: 'comprovante de pagamento', return: 'aviso de devolução' },
    returnNote: (reason, meaning) => `${reason ?? '?'} → ${meaning ?? 'motivo fora da tabela'}`,
    unknownNote: (id) => `resultado desconhecido: confira o extrato e rode paybatch boleto resolve ${id} --paid (ou --not-paid)`,
    fieldValue: ['campo', 'valor'],
    decode: {
      valid: 'válido',
      yes: 'sim',
      invalid: (error) => `não: ${error}`,
      kind: 'tipo',
      bankSlip: 'boleto bancário',
      collectionSlip: 'boleto de arrecadação (consumo/órgão público)',
      line: 'linha digitável',
      barcode: 'código de barras',
      bank: 'banco',
      segment: 'segmento',
      company: 'empresa',
      referenceValue: 'valor de referência',
      amount: 'valor',
      payerSupplies: 'o pagador informa o valor',
      dueDate: 'vencimento',
      unknown: 'desconhecido',
      none: 'nenhum',
    },
    details: {
      notACode: 'Este não é um código de conta válido; nada foi enviado ao provedor.',
      noDetails: 'O provedor não consegue dar os detalhes desta conta.',
      kind: 'tipo',
      line: 'linha digitável',
      beneficiary: 'beneficiário',
      beneficiaryDocument: 'documento do beneficiário',
      assignor: 'cedente',
      amountDue: 'valor devido',
      chosenByPayer: 'escolhido pelo pagador',
      originalAmount: 'valor original',
      discount: 'desconto',
      interest: 'juros e multa',
      minMax: 'mínimo / máximo',
      canChange: 'valor pode mudar',
      yes: 'sim',
      no: 'não',
      dueDate: 'vencimento',
      settleDate: 'liquidação (provedor)',
      bankWindow: 'horário bancário',
      mustNotPay: 'Esta conta não deve ser paga como foi digitada: nada foi pago.',
    },
    pay: {
      beneficiary: 'beneficiário',
      kind: 'tipo',
      line: 'linha digitável',
      amount: 'valor',
      dueDate: 'vencimento',
      when: 'quando',
      description: 'descrição',
      planHead: ['linha', 'beneficiário', 'valor', 'vencimento', 'quando'],
      scheduledFor: (day) => `agendado para ${day}`,
      now: 'agora',
      planTotal: (count, total) => `${counted('pt-BR', count, { one: 'conta', other: 'contas' })}, total de ${total}.`,
      againWithForce: (previous) => `o registro local já tem esta conta como ${previous}; pagando de novo por causa de --force`,
      confirmOne: (amount, beneficiary, document, when) => `Pagar ${amount} a ${beneficiary} (${document}), ${when}?`,
      confirmMany: (count, total, later) => `Pagar ${counted('pt-BR', count, { one: 'conta', other: 'contas' })} somando ${total}${later ? ` (${later} agendadas para o próximo horário bancário)` : ''}?`,
      theBeneficiary: 'o beneficiário',
      noDocument: 'sem documento',
      leftOut: (where, why) => `- ${where} deixada de fora: ${why}`,
      nothingToPay: 'Nada a pagar: todas as contas do arquivo já estão pagas ou agendadas no registro local.',
      laterLine: (where, amount, day) => `${where}  ${amount}  agendada para ${day}: o daemon a paga nesse dia`,
      confirmSchedules: (count, total) => `Agendar ${counted('pt-BR', count, { one: 'conta', other: 'contas' })} somando ${total} para o dia que a remessa pede?`,
      andSchedule: (count, total) => `, e agendar ${counted('pt-BR', count, { one: 'conta', other: 'contas' })} somando ${total} para um dia posterior`,
      scheduled: (where, amount, day) => `${where} ${amount} agendada para ${day}: o daemon a paga nesse dia`,
      alreadyScheduled: (where, day) => `- ${where} já agendada para ${day}: não foi agendada de novo`,
      receipt: (path) => `  comprovante: ${path}`,
      stopped: (count, lines) => `Parado após um resultado desconhecido: ${counted('pt-BR', count, { one: 'conta não foi enviada', other: 'contas não foram enviadas' })} (${lines.map((l) => `linha ${l}`).join(', ')}).`,
      settleFirst:
        'Resolva primeiro o pagamento desconhecido (veja acima) e depois rode o mesmo arquivo de novo: as contas que o registro local tem como pagas ficam de fora, e só o resto é pago.',
      progress: (index, total, where, status, message) => `[${index}/${total}] ${where} ${status}: ${message}`,
    },
    resolve: {
      what: (id, amount, beneficiary, line) => `a conta #${id} (${amount} para ${beneficiary ?? 'o beneficiário'}, linha ${line})`,
      confirmNotPaid: (what) => `Registrar ${what} como NÃO paga? Ela poderá ser paga de novo.`,
      nothing: 'Nada foi registrado.',
      paid: (what, tx) => `✓ Registrada ${what} como paga${tx ? ` (transação ${tx})` : ''}.`,
      notPaid: (what) => `✓ Registrada ${what} como não paga; ela pode ser paga de novo.`,
    },
    returnWritten: (file, titles, open) =>
      `Arquivo retorno dos boletos de ${file}: ${counted('pt-BR', titles, { one: 'boleto', other: 'boletos' })}${open ? `, ${open} ainda em aberto (com BD: gere o retorno de novo quando terminarem)` : ''}.`,
  },
};
