import { describe, expect, it } from 'vitest';
import { classifyCallback, type CallbackInput, type Classified } from '../../src/domain/callback-classifier.js';

/** A callback with an empty title and detail unless given. */
const callback = (type: string, category: string, more: Partial<CallbackInput> = {}): CallbackInput => ({
  type,
  category,
  title: null,
  detail: {},
  ...more,
});

/** A bill classification with every field null unless given. */
const bill = (phase: 'paid' | 'scheduled' | 'returned' | 'failed', more: Partial<Extract<Classified, { kind: 'bill' }>> = {}): Classified => ({
  kind: 'bill',
  phase,
  transactionId: null,
  line: null,
  amountCents: null,
  settleDate: null,
  reason: null,
  meaning: null,
  ...more,
});

const SLIP_LINE = '23793.38128 60000.000003 00000.000400 1 84340000012345';
const SLIP_DIGITS = '23793381286000000000300000000400184340000012345';
const BARCODE_44 = '84670000001435900240200240500024384221010811';

describe('classifyCallback: the sandbox shape', () => {
  it.each<[string, CallbackInput, Classified]>([
    [
      'bill_paid',
      {
        type: 'bill_payment',
        category: 'bill_paid',
        title: 'Bill paid',
        detail: { transactionId: 'tx-1', typefulLine: SLIP_LINE, amount: 123.45, settleDate: '2026-12-03' },
        raw: { subtitle: 'R$ 123,45 to ACME Energia' },
      },
      bill('paid', { transactionId: 'tx-1', line: SLIP_DIGITS, amountCents: 12345, settleDate: '2026-12-03' }),
    ],
    [
      'bill_return with a SPEC reason',
      {
        type: 'bill_payment',
        category: 'bill_return',
        title: 'Bill payment returned',
        detail: { transactionId: 'tx-2', typefulLine: SLIP_DIGITS, amount: 50, reason: '23 - bill cannot be received because it is settled' },
        raw: { subtitle: 'R$ 50,00 back from ACME Energia' },
      },
      bill('returned', {
        transactionId: 'tx-2',
        line: SLIP_DIGITS,
        amountCents: 5000,
        reason: '23 - bill cannot be received because it is settled',
        meaning: 'bill already paid',
      }),
    ],
    [
      'bill_return with a reason not in the table',
      callback('bill_payment', 'bill_return', { detail: { transactionId: 'tx-3', typefulLine: SLIP_DIGITS, amount: 0.5, reason: 'Something new' } }),
      bill('returned', { transactionId: 'tx-3', line: SLIP_DIGITS, amountCents: 50, reason: 'Something new' }),
    ],
    [
      'bill_return with a null reason',
      callback('bill_payment', 'bill_return', { detail: { transactionId: 'tx-4', typefulLine: SLIP_DIGITS, amount: 10, reason: null } }),
      bill('returned', { transactionId: 'tx-4', line: SLIP_DIGITS, amountCents: 1000 }),
    ],
  ])('%s', (_name, event, expected) => {
    expect(classifyCallback(event, 'reais')).toEqual(expected);
  });
});

describe('classifyCallback: other bill shapes', () => {
  it.each<[string, CallbackInput, Classified]>([
    [
      'Portuguese provider, return',
      callback('boleto', 'pagamento_devolvido', {
        detail: { idTransacao: 'abc-9', linhaDigitavel: SLIP_LINE, valor: '123.45', motivo: 'Already paid' },
      }),
      bill('returned', { transactionId: 'abc-9', line: SLIP_DIGITS, amountCents: 12345, reason: 'Already paid', meaning: 'bill already paid' }),
    ],
    [
      'Portuguese provider, payment',
      callback('BOLETO', 'PAGAMENTO_CONFIRMADO', {
        detail: { id_transacao: 'abc-10', linha_digitavel: SLIP_LINE, valorPago: '99.9', dataPagamento: '03/12/2026' },
      }),
      bill('paid', { transactionId: 'abc-10', line: SLIP_DIGITS, amountCents: 9990, settleDate: '2026-12-03' }),
    ],
    [
      'reason only in another field of detail',
      callback('BILL', 'BILL_RETURNED', {
        title: 'Boleto devolvido',
        detail: { id: 'T9', descricao: 'Ocorrência AJ - Invalid movement type', codigoBarras: BARCODE_44 },
      }),
      bill('returned', { transactionId: 'T9', line: BARCODE_44, reason: 'Ocorrência AJ - Invalid movement type', meaning: 'generic refusal; contact support' }),
    ],
    [
      'reason only in the subtitle',
      callback('bill', 'returned', { title: 'Payment returned', raw: { subtitle: ' Invalid barcode ' } }),
      bill('returned', { reason: 'Invalid barcode', meaning: 'information differs from the central registry' }),
    ],
    [
      'reason only in the title',
      callback('bill', 'returned', { title: '14 - bill blocked for payment' }),
      bill('returned', { reason: '14 - bill blocked for payment', meaning: 'bill already written off' }),
    ],
    [
      'reason given in words of its own, meaning from another field',
      callback('boleto', 'estorno', {
        detail: { returnReason: 'Devolvido pelo beneficiário', observacao: '276 - bill already received on this date' },
      }),
      bill('returned', { reason: 'Devolvido pelo beneficiário', meaning: 'bill received within the same day' }),
    ],
    [
      'reason under motivoDevolucao, in any case',
      callback('boleto', 'devolucao', { detail: { MOTIVO_DEVOLUCAO: 'NC - registered value differs in the registry or is not updated for payment' } }),
      bill('returned', {
        reason: 'NC - registered value differs in the registry or is not updated for payment',
        meaning: 'value differs from the central registry',
      }),
    ],
    [
      'a failed bill keeps its reason',
      callback('bill_payment', 'bill_failed', { detail: { transactionId: 'tx-5', reason: '2 - operation failed' } }),
      bill('failed', { transactionId: 'tx-5', reason: '2 - operation failed', meaning: 'generic refusal; contact support' }),
    ],
    [
      'a paid bill has no reason, whatever its fields say',
      callback('bill_payment', 'bill_paid', { detail: { transactionId: 'tx-6', note: 'Already paid', reason: 'x' } }),
      bill('paid', { transactionId: 'tx-6' }),
    ],
    [
      'scheduled',
      callback('bill_payment', 'bill_scheduled', { detail: { transactionId: 'tx-7', settleDate: '2026-12-04T00:00:00' } }),
      bill('scheduled', { transactionId: 'tx-7', settleDate: '2026-12-04' }),
    ],
    ['pagamento agendado', callback('conta', 'PAGAMENTO_AGENDADO'), bill('scheduled')],
    ['agendamento confirmado is a scheduling', callback('boleto', 'agendamento_confirmado'), bill('scheduled')],
    ['scheduled_bill_paid is a payment', callback('bill', 'scheduled_bill_paid'), bill('paid')],
    ['BillPaid in camel case', callback('BillPayment', 'BillPaid'), bill('paid')],
    ['settled', callback('payment_slip', 'settled'), bill('paid')],
    ['liquidado', callback('Boleto', 'Liquidado'), bill('paid')],
    ['pago, with accents around', callback('Cobrança', 'Paga'), bill('paid')],
    ['tributo / DARF', callback('tributo', 'darf_pago'), bill('paid')],
    ['convênio', callback('convênio', 'liquidado'), bill('paid')],
    ['pagamento de conta realizado', callback('pagamento de conta', 'realizado'), bill('paid')],
    ['não realizado is a failure', callback('boleto', 'pagamento_nao_realizado'), bill('failed')],
    ['NÃO REALIZADO in capitals', callback('BOLETO', 'NÃO REALIZADO'), bill('failed')],
    ['recusado', callback('boleto', 'boleto_recusado'), bill('failed')],
    ['cancelado', callback('conta', 'cancelado'), bill('failed')],
    ['falhou', callback('bill_payment', 'falhou'), bill('failed')],
    ['rejected is a failure', callback('bill', 'rejected'), bill('failed')],
    ['rejected by beneficiary is a return', callback('bill', 'rejected_by_beneficiary'), bill('returned')],
    ['bill_return', callback('bill_payment', 'bill_return'), bill('returned')],
    ['estornado', callback('boleto', 'ESTORNADO'), bill('returned')],
    ['a boleto paid with Pix is a bill', callback('boleto', 'pago_com_pix'), bill('paid')],
    [
      'phase from the title when type and category say nothing of it',
      callback('payment_slip', 'notification', { title: 'Pagamento confirmado' }),
      bill('paid'),
    ],
    ['kind from the title', callback('notification', 'event', { title: 'Boleto pago' }), bill('paid')],
    ['phase from a status field', callback('boleto', 'update', { detail: { Status: 'LIQUIDADO' } }), bill('paid')],
    ['phase from situacao', callback('boleto', 'update', { detail: { situacao: 'Devolvido' } }), bill('returned')],
    [
      'kind from a whole barcode in detail',
      callback('payment', 'update', { detail: { barcode: BARCODE_44, status: 'paid' } }),
      bill('paid', { line: BARCODE_44 }),
    ],
    [
      'a 47-digit line in code',
      callback('payment', 'settled', { detail: { code: SLIP_LINE } }),
      bill('paid', { line: SLIP_DIGITS }),
    ],
  ])('%s', (_name, event, expected) => {
    expect(classifyCallback(event, 'reais')).toEqual(expected);
  });
});

describe('classifyCallback: reading detail', () => {
  const paid = (detail: Record<string, unknown>): Classified => classifyCallback(callback('bill_payment', 'bill_paid', { detail }), 'reais');

  it.each<[string, Record<string, unknown>, Partial<Extract<Classified, { kind: 'bill' }>>]>([
    ['transactionId', { transactionId: 'a' }, { transactionId: 'a' }],
    ['transaction_id', { transaction_id: 'b' }, { transactionId: 'b' }],
    ['TransactionID', { TransactionID: 'c' }, { transactionId: 'c' }],
    ['idTransacao', { idTransacao: 'd' }, { transactionId: 'd' }],
    ['ID_TRANSACAO', { ID_TRANSACAO: 'e' }, { transactionId: 'e' }],
    ['txId', { txId: 'f' }, { transactionId: 'f' }],
    ['id', { id: 'g' }, { transactionId: 'g' }],
    ['numeric id', { id: 12345 }, { transactionId: '12345' }],
    ['trimmed', { transactionId: '  h  ' }, { transactionId: 'h' }],
    ['transactionId before id', { id: 'late', transactionId: 'first' }, { transactionId: 'first' }],
    ['empty transactionId falls back to id', { transactionId: ' ', id: 'i' }, { transactionId: 'i' }],
    ['no id', { transactionId: null, id: { nested: 1 } }, {}],
    ['typefulLine', { typefulLine: SLIP_LINE }, { line: SLIP_DIGITS }],
    ['digitableLine', { digitableLine: '23793-38128' }, { line: '2379338128' }],
    ['LinhaDigitavel', { LinhaDigitavel: SLIP_DIGITS }, { line: SLIP_DIGITS }],
    ['linha_digitavel', { linha_digitavel: SLIP_DIGITS }, { line: SLIP_DIGITS }],
    ['barcode', { barcode: BARCODE_44 }, { line: BARCODE_44 }],
    ['codigoBarras', { codigoBarras: BARCODE_44 }, { line: BARCODE_44 }],
    ['code', { code: '8467 0000' }, { line: '84670000' }],
    ['a code with letters is no line', { code: 'AB03' }, {}],
    ['a line with letters is no line', { typefulLine: 'n/a' }, {}],
    ['a line as a number is no line', { typefulLine: 123 }, {}],
    ['first usable line', { typefulLine: '', barcode: BARCODE_44 }, { line: BARCODE_44 }],
    ['amount number', { amount: 123.45 }, { amountCents: 12345 }],
    ['amount whole number', { amount: 100 }, { amountCents: 10000 }],
    ['amount string', { amount: '1234.5' }, { amountCents: 123450 }],
    ['valor string', { valor: '110.00' }, { amountCents: 11000 }],
    ['amountPaid', { amountPaid: 0.01 }, { amountCents: 1 }],
    ['VALOR_PAGO', { VALOR_PAGO: '7' }, { amountCents: 700 }],
    ['zero', { amount: 0 }, { amountCents: 0 }],
    ['comma decimal is not a reais number', { valor: '12,34' }, {}],
    ['negative', { amount: -1 }, {}],
    ['three decimals', { amount: 1.234 }, {}],
    ['unusable amount falls back', { amount: 'abc', valorPago: 10 }, { amountCents: 1000 }],
    ['settleDate', { settleDate: '2026-12-03' }, { settleDate: '2026-12-03' }],
    ['settledate', { settledate: '2026-12-03' }, { settleDate: '2026-12-03' }],
    ['dataLiquidacao Brazilian', { dataLiquidacao: '03/12/2026' }, { settleDate: '2026-12-03' }],
    ['paymentDate with zone', { paymentDate: '2026-12-04T01:00:00Z' }, { settleDate: '2026-12-03' }],
    ['dataPagamento Unix seconds', { dataPagamento: 1764558000 }, { settleDate: '2025-12-01' }],
    ['invalid date', { settleDate: '2026-02-30' }, {}],
    ['invalid date falls back', { settleDate: 'soon', paymentDate: '2026-12-05' }, { settleDate: '2026-12-05' }],
  ])('%s', (_name, detail, fields) => {
    expect(paid(detail)).toEqual(bill('paid', fields));
  });
});

describe('classifyCallback: Pix and TED', () => {
  it.each<[string, CallbackInput, Classified]>([
    [
      'pix_in',
      callback('pix', 'pix_in', { detail: { transactionId: 'p1', amount: 10.5 } }),
      { kind: 'pix', direction: 'in', transactionId: 'p1', amountCents: 1050 },
    ],
    ['pix_out of type output', callback('output', 'pix_out'), { kind: 'pix', direction: 'out', transactionId: null, amountCents: null }],
    ['PixIn in camel case', callback('Event', 'PixIn'), { kind: 'pix', direction: 'in', transactionId: null, amountCents: null }],
    ['Pix recebido', callback('PIX', 'RECEBIDO'), { kind: 'pix', direction: 'in', transactionId: null, amountCents: null }],
    ['Pix enviado', callback('pix', 'pix enviado'), { kind: 'pix', direction: 'out', transactionId: null, amountCents: null }],
    [
      'Pix cobrança recebida',
      callback('pix', 'cobranca_recebida', { detail: { txId: 'cob-1', valor: '110.00' } }),
      { kind: 'pix', direction: 'in', transactionId: 'cob-1', amountCents: 11000 },
    ],
    [
      'direction from transactionType',
      callback('pix', 'notification', { detail: { transactionType: 'debit' } }),
      { kind: 'pix', direction: 'out', transactionId: null, amountCents: null },
    ],
    [
      'kind from the title, direction from the category',
      callback('transaction', 'credit', { title: 'Pix recebido' }),
      { kind: 'pix', direction: 'in', transactionId: null, amountCents: null },
    ],
    ['no direction', callback('pix', 'update'), { kind: 'pix', direction: null, transactionId: null, amountCents: null }],
    ['both directions say nothing', callback('pix', 'in_out'), { kind: 'pix', direction: null, transactionId: null, amountCents: null }],
    [
      'TED recebida',
      callback('TED', 'TED_RECEBIDA', { detail: { idTransacao: 't-7', valor: '1500.00' } }),
      { kind: 'ted', direction: 'in', transactionId: 't-7', amountCents: 150000 },
    ],
    ['ted_out of type transfer', callback('transfer', 'ted_out'), { kind: 'ted', direction: 'out', transactionId: null, amountCents: null }],
    ['TED para conta is a TED', callback('ted', 'envio para conta'), { kind: 'ted', direction: 'out', transactionId: null, amountCents: null }],
    ['a transfer naming neither is a TED', callback('transferência', 'enviada'), { kind: 'ted', direction: 'out', transactionId: null, amountCents: null }],
    [
      'a transfer with an end-to-end id is a Pix',
      callback('transfer', 'sent', { detail: { endToEndId: 'E12345678202612031000abcdefghijk' } }),
      { kind: 'pix', direction: 'out', transactionId: null, amountCents: null },
    ],
    [
      'a TED with an end-to-end id stays a TED',
      callback('ted', 'sent', { detail: { endToEndId: 'E1' } }),
      { kind: 'ted', direction: 'out', transactionId: null, amountCents: null },
    ],
    [
      'a null end-to-end id says nothing',
      callback('transfer', 'sent', { detail: { endToEndId: null } }),
      { kind: 'ted', direction: 'out', transactionId: null, amountCents: null },
    ],
    ['cash in', callback('transfer', 'cash_in'), { kind: 'ted', direction: 'in', transactionId: null, amountCents: null }],
  ])('%s', (_name, event, expected) => {
    expect(classifyCallback(event, 'reais')).toEqual(expected);
  });
});

describe("classifyCallback: a bill amount's unit", () => {
  const amountOf = (value: unknown, unit: 'reais' | 'cents' | null) => {
    const c = classifyCallback(callback('bill_payment', 'bill_paid', { detail: { valorPago: value } }), unit);
    return c.kind === 'bill' ? c.amountCents : 'not a bill';
  };

  it.each<[unknown, 'reais' | 'cents' | null, number | null]>([
    // A bare number is in the profile's bill amount unit: 48731 is R$ 487,31 from a provider of centavos.
    [48731, 'cents', 48731],
    [48731, 'reais', 4873100],
    ['48731', 'cents', 48731],
    // Text with a decimal point is reais whatever the unit.
    ['487.31', 'cents', 48731],
    ['487.31', 'reais', 48731],
    // Not knowable: the unit unset for a bare number, or a fraction of a centavo.
    [48731, null, null],
    ['48731', null, null],
    [487.31, 'cents', null],
    ['487.31', null, 48731],
  ])('%j with billAmountUnit %s is %s centavos', (value, unit, cents) => {
    expect(amountOf(value, unit)).toBe(cents);
  });
});

describe('classifyCallback: unknown', () => {
  it.each<[string, CallbackInput]>([
    ['account balance', callback('account', 'balance_update')],
    ['empty words', callback('', '')],
    ['a welcome message', callback('notification', 'info', { title: 'Welcome' })],
    ['a short code is no line', callback('card', 'purchase', { detail: { code: '123', status: 'approved' } })],
    ['a bill whose phase cannot be told', callback('boleto', 'update')],
    ['a bill issued, not paid', callback('boleto', 'emitido', { detail: { linhaDigitavel: SLIP_LINE } })],
    ['a bill line alone, no phase', callback('payment', 'update', { detail: { barcode: BARCODE_44 } })],
    ['billing is not bill', callback('billing', 'invoice_paid')],
    ['a subtitle that is not a string', callback('account', 'update', { raw: { subtitle: 42 } })],
  ])('%s', (_name, event) => {
    expect(classifyCallback(event, 'reais')).toEqual({ kind: 'unknown' });
  });
});
