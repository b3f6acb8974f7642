import { addBusinessDays, billWindow, saoPauloDate, saoPauloInstant } from '../domain/bank-calendar.js';
import { billWindowCloseHour, type BoletoDecode } from '../domain/boleto.js';
import { cnpjCheckDigits, formatCnpj } from '../domain/cnpj.js';
import { BILL_RETURN_REASONS, type BillReturnReason } from '../domain/reasons.js';
import { BANKS, COMPANY_WORDS, SURNAMES } from './people.js';
import { hashDigits, hashUnit } from './random.js';

/** What the sandbox's central registry knows about a bill on a given day. Amounts in centavos. */
export interface RegisteredBill {
  readonly barcode: string;
  readonly line: string;
  readonly assignor: string;
  readonly beneficiary: string;
  readonly beneficiaryDocument: string;
  /** YYYY-MM-DD. */
  readonly dueDate: string;
  readonly originalCents: number;
  readonly discountCents: number;
  readonly interestCents: number;
  /** What is due today: original − discount + interest. */
  readonly amountCents: number;
  readonly minCents: number;
  readonly maxCents: number;
  readonly canChangeAmount: boolean;
  /** Where a payment made now goes: at once, or scheduled for the window that opens at `settleAt`. */
  readonly windowOpen: boolean;
  /** YYYY-MM-DD of the settlement of a payment made now. */
  readonly settleDate: string;
  /** Simulated ms when a payment made now settles (now when the window is open). */
  readonly settleAt: number;
}

/** Largest amount of a bill whose amount the payer chooses: R$ 1.000.000,00. */
const MAX_CHOSEN_AMOUNT_CENTS = 100_000_000;

const SEGMENT_ASSIGNORS: Readonly<Record<number, string>> = {
  1: 'Prefeitura Municipal',
  2: 'Companhia de Saneamento',
  3: 'Companhia de Energia',
  4: 'Operadora de Telecomunicações',
  5: 'Órgão Governamental',
  6: 'Empresa',
  7: 'Departamento de Trânsito',
  9: 'Convênio Bancário',
};

/** A bill whose barcode ends in "0404" is not in the registry (404). */
export function notInRegistry(barcode: string): boolean {
  return barcode.endsWith('0404');
}

/**
 * The return the registry scripts for a barcode: one ending in "77NN", NN from 01 to 21, is returned with row NN
 * of SPEC.md's table of return reasons (BILL_RETURN_REASONS), one business day after it settles at 10:00.
 */
export function scriptedReturn(barcode: string): BillReturnReason | null {
  const match = /77(\d\d)$/.exec(barcode);
  return match ? (BILL_RETURN_REASONS[Number(match[1]) - 1] ?? null) : null;
}

/** The simulated instant of a scripted return: 10:00 São Paulo, one business day after the settle date. */
export function scriptedReturnAt(settleDate: string): number {
  return saoPauloInstant(addBusinessDays(settleDate, 1), 10).getTime();
}

/**
 * The registry's record of a valid bill at simulated instant `nowMs`, computed from the code (no seed):
 * - due date: the bank slip's own; otherwise (no factor, or a collection slip) today plus −5 to 25 days from the code;
 * - amount: the code's; a zero amount or a reference value means the payer chooses it (canChangeAmount, between
 *   R$ 0,01 and R$ 1.000.000,00), otherwise min = max = the amount due;
 * - discount: 2% for 1 in 4 bills paid up to the due date; interest after it: 2% plus 1% a month pro rata die.
 */
export function registeredBill(decoded: BoletoDecode & { barcode: string; line: string }, nowMs: number): RegisteredBill {
  const at = (what: string): number => hashUnit(`${decoded.barcode}:${what}`);
  const now = new Date(nowMs);
  const today = saoPauloDate(now);
  const dueDate = decoded.dueDate ?? addDays(today, Math.floor(at('due') * 31) - 5);
  const daysLate = Math.max(0, daysBetween(dueDate, today));
  const canChangeAmount = decoded.amountCents === null;
  const originalCents = decoded.amountCents ?? 0;
  const discountCents = daysLate === 0 && at('discount') < 0.25 ? Math.round(originalCents * 0.02) : 0;
  const interestCents = daysLate > 0 ? Math.round(originalCents * (0.02 + (0.01 * daysLate) / 30)) : 0;
  const amountCents = originalCents - discountCents + interestCents;
  const window = billWindow(now, billWindowCloseHour(decoded));
  const settleAt = window.open ? nowMs : window.opensAt.getTime();
  return {
    barcode: decoded.barcode,
    line: decoded.line,
    ...parties(decoded, at),
    dueDate,
    originalCents,
    discountCents,
    interestCents,
    amountCents,
    minCents: canChangeAmount ? 1 : amountCents,
    maxCents: canChangeAmount ? MAX_CHOSEN_AMOUNT_CENTS : amountCents,
    canChangeAmount,
    windowOpen: window.open,
    settleDate: saoPauloDate(new Date(settleAt)),
    settleAt,
  };
}

/** How a dialect writes bill dates (from YYYY-MM-DD) and amounts (from centavos). */
export interface BillFormat {
  billDate(date: string): string;
  billAmount(cents: number): number | string;
}

/** The details answer of endpoint 12 (SPEC.md "Bill details"), dates and amounts as the dialect writes them. */
export function detailsBody(bill: RegisteredBill, format: BillFormat): Record<string, string | number | boolean> {
  return {
    assignor: bill.assignor,
    settledate: format.billDate(bill.settleDate),
    discount: format.billAmount(bill.discountCents),
    maxValue: format.billAmount(bill.maxCents),
    minValue: format.billAmount(bill.minCents),
    beneficiary: bill.beneficiary,
    canChangeAmount: bill.canChangeAmount,
    amount: format.billAmount(bill.amountCents),
    interest: format.billAmount(bill.interestCents),
    originalAmount: format.billAmount(bill.originalCents),
    typefulLine: bill.line,
    beneficiaryDocument: bill.beneficiaryDocument,
    dueDate: format.billDate(bill.dueDate),
  };
}

function parties(decoded: BoletoDecode, at: (what: string) => number): { assignor: string; beneficiary: string; beneficiaryDocument: string } {
  const surname = SURNAMES[Math.floor(at('surname') * SURNAMES.length)] ?? 'Silva';
  const word = COMPANY_WORDS[Math.floor(at('word') * COMPANY_WORDS.length)] ?? 'Comércio';
  const cnpjRoot = decoded.segment === 6 && decoded.companyCode ? decoded.companyCode : hashDigits(`${decoded.barcode}:cnpj`, 8);
  const cnpjBase = `${cnpjRoot}0001`;
  const beneficiaryDocument = formatCnpj(cnpjBase + cnpjCheckDigits(cnpjBase));
  if (decoded.kind === 'bank') {
    const bank = decoded.bankCode ?? '000';
    return { assignor: BANKS[bank] ?? `Banco ${bank}`, beneficiary: `${surname} ${word} Ltda`, beneficiaryDocument };
  }
  const assignor = `${SEGMENT_ASSIGNORS[decoded.segment ?? 9] ?? 'Convênio'} ${decoded.companyCode ?? ''}`.trim();
  return { assignor, beneficiary: `${assignor} ${surname}`, beneficiaryDocument };
}

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `a` to `b` (YYYY-MM-DD), negative when `b` is earlier. */
function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}
