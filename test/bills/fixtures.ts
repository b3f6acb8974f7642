import { buildBankBarcode, buildCollectionBarcode, lineOf } from '../helpers/boleto.js';
import { ProviderError } from '../../src/errors.js';
import type { BillDetails, BillPayment } from '../../src/provider/types.js';

/** Monday 2025-03-10, 10:00 São Paulo: the bank window is open. */
export const MONDAY_10H = '2025-03-10T10:00:00-03:00';
/** Saturday 2025-03-08, 22:30 São Paulo: closed until Monday 08:00. */
export const SATURDAY_NIGHT = '2025-03-08T22:30:00-03:00';

/**
 * The due date of bank slips that two clocks read: the sandbox's, pinned to the week of SATURDAY_NIGHT and MONDAY_10H,
 * and paybatch's own, which in end-to-end tests is the real one. A slip carries its due date as a factor that names
 * the date from 3000 days before to 5500 days after the day it is read, so a date near the pinned week (say
 * 2025-03-31) stops decoding once the real date is 3000 days past it (mid-2033), then decodes to a date 9000 days
 * later. 2039-12-31 is within the sandbox's 5500 days (to the end of March 2040), after its pinned week (no interest), and reads
 * as itself for paybatch on any real date up to early 2048, never past due. Fixed, so the codes — and all the sandbox
 * derives from them — are the same from one day to the next. From 2048 no date serves both clocks: this throws,
 * rather than hand out codes that decode as other dates, and the pinned week must move forward.
 */
export function dueDateForBothClocks(today: Date = new Date()): string {
  const due = '2039-12-31';
  // paybatch reads the factor as this date only up to 3000 days after it (kept a month clear of that edge).
  if (today.getTime() > Date.parse(`${due}T00:00:00Z`) + 2970 * 86_400_000) {
    throw new Error(`No due date decodes the same on the sandbox's pinned clock (${SATURDAY_NIGHT}) and on ${today.toISOString()}: move the pinned week forward.`);
  }
  return due;
}

/** A bank slip line (bank 237, due 2025-03-20 unless told); `tail` ends the free field (e.g. "7701": a scripted return). */
export const bankLine = (o: { amountCents?: number; dueDate?: string | null; tail?: string; bank?: string } = {}) =>
  lineOf(buildBankBarcode({ bankCode: o.bank ?? '237', dueDate: o.dueDate === undefined ? '2025-03-20' : o.dueDate, amountCents: o.amountCents ?? 15_990, freeField: `123456789012345678901${o.tail ?? '2345'}` }));

/** A collection slip line: segment 3 (electricity, a utility) unless told; valueId 7 or 9 = reference value. */
export const collectionLine = (o: { amountCents?: number; segment?: number; valueId?: 6 | 7 | 8 | 9; tail?: string } = {}) =>
  lineOf(
    o.segment === 6
      ? buildCollectionBarcode({ segment: 6, valueId: o.valueId ?? 6, amountCents: o.amountCents ?? 8_745, companyCode: '12345678', freeField: `12345678901234567${o.tail ?? '2345'}` })
      : buildCollectionBarcode({ segment: o.segment ?? 3, valueId: o.valueId ?? 6, amountCents: o.amountCents ?? 8_745, companyCode: '0048', freeField: `123456789012345678901${o.tail ?? '2345'}` }),
  );

/** Details as a provider would answer for a bill of `amountCents`, fixed amount, unless overridden. */
export function detailsFor(line: string, amountCents: number, over: Partial<BillDetails> = {}): BillDetails {
  return {
    assignor: 'Banco Bradesco S.A.',
    settleDate: '2025-03-10',
    discountCents: 0,
    maxValueCents: amountCents,
    minValueCents: amountCents,
    beneficiary: 'Silva Comércio Ltda',
    canChangeAmount: false,
    amountCents,
    interestCents: 0,
    fineCents: null,
    originalAmountCents: amountCents,
    typefulLine: line,
    beneficiaryDocument: '12.345.678/0001-95',
    dueDate: '2025-03-20',
    ...over,
  };
}

export function paymentFor(line: string, amountCents: number, over: Partial<BillPayment> = {}): BillPayment {
  return {
    status: 'paid',
    settleDate: '2025-03-10',
    timestamp: '1741611600',
    amountPaidCents: amountCents,
    dueDate: '2025-03-20',
    assignor: 'Banco Bradesco S.A.',
    payer: 'Empresa Pagadora Ltda',
    payerDocument: '11.222.333/0001-81',
    beneficiary: 'Silva Comércio Ltda',
    amountCents,
    details: {},
    typefulLine: line,
    transactionId: `tx-${line.slice(-6)}`,
    beneficiaryDocument: '12.345.678/0001-95',
    raw: { status: 'paid' },
    ...over,
  };
}

export const lostAnswer = () =>
  new ProviderError('POST /cashout/boleto: the connection was lost before the answer was complete', { status: null, method: 'POST', path: '/cashout/boleto', code: 'UND_ERR_SOCKET', outcomeUnknown: true });

export const httpError = (status: number, code: string, message = code) =>
  new ProviderError(`POST /cashout/boleto failed with HTTP ${status} (${code}: ${message})`, { status, method: 'POST', path: '/cashout/boleto', code });

/** A scripted provider: details by line (or a thrown error), payment answers in order; records every call. */
export class FakeProvider {
  readonly calls: { op: 'details' | 'pay'; code: string; amountCents?: number }[] = [];
  constructor(
    readonly details: (code: string) => BillDetails | Error,
    readonly pay: (code: string, amountCents: number) => BillPayment | Error = (code, amountCents) => paymentFor(code, amountCents),
    readonly beforePay?: () => void | Promise<void>,
  ) {}
  async boletoDetails(code: string): Promise<BillDetails> {
    this.calls.push({ op: 'details', code });
    const d = this.details(code);
    if (d instanceof Error) throw d;
    return d;
  }
  async payBoleto(code: string, amountCents: number): Promise<BillPayment> {
    this.calls.push({ op: 'pay', code, amountCents });
    await this.beforePay?.();
    const r = this.pay(code, amountCents);
    if (r instanceof Error) throw r;
    return r;
  }
}
