/**
 * What a generic callback (SPEC.md "Event notification") is about, whatever words the provider chose: SPEC.md
 * shows neither the list of types and categories nor the structure of `detail`, so they are read by their words
 * (English or Portuguese; any case, accents, separators or camel case) and by the usual names of detail fields.
 */
import { reaisToCents } from './money.js';
import { providerDate } from './provider-dates.js';
import { splitWords } from './provider-words.js';
import { matchBillReturnReason } from './reasons.js';
import type { AmountUnit } from './webhook-event.js';

export type BillPhase = 'paid' | 'scheduled' | 'returned' | 'failed';

export type Classified =
  | {
      kind: 'bill';
      phase: BillPhase;
      transactionId: string | null;
      /** Digits only. */
      line: string | null;
      amountCents: number | null;
      /** `YYYY-MM-DD`. */
      settleDate: string | null;
      /** The reason received, for returned and failed bills. */
      reason: string | null;
      /** The meaning SPEC.md's table of return reasons gives it, when a text of the event matches a row. */
      meaning: string | null;
    }
  | { kind: 'pix' | 'ted'; direction: 'in' | 'out' | null; transactionId: string | null; amountCents: number | null }
  | { kind: 'unknown' };

export interface CallbackInput {
  type: string;
  category: string;
  title: string | null;
  detail: Record<string, unknown>;
  /** The whole body as received; its `subtitle`, if any, is read like the title. */
  raw?: unknown;
}

// Word lists, each entry one or more whole words in `splitWords` form.
const BILL_WORDS = [
  'bill', 'bills', 'boleto', 'boletos', 'payment slip', 'payment slips', 'tributo', 'tributos', 'darf', 'convenio', 'convenios',
];
/** Bill words that also occur in transfers ("TED para conta", "Pix cobrança"): they count only when no transfer word does. */
const WEAK_BILL_WORDS = ['conta', 'contas', 'cobranca', 'cobrancas'];
const PIX_WORDS = ['pix'];
const TED_WORDS = ['ted'];
const TRANSFER_WORDS = ['transfer', 'transfers', 'transferencia', 'transferencias', ...PIX_WORDS, ...TED_WORDS];

/** Phases in the order they are tried: "não realizado" is a failure before "realizado" is a payment. */
const PHASE_WORDS: ReadonlyArray<readonly [BillPhase, readonly string[]]> = [
  [
    'returned',
    [
      'return', 'returned', 'returns', 'devolvido', 'devolvida', 'devolucao', 'estorno', 'estornado', 'estornada',
      'refund', 'refunded', 'reversed', 'reversal', 'chargeback', 'rejected by beneficiary', 'rejected by the beneficiary',
      'recusado pelo beneficiario', 'rejeitado pelo beneficiario',
    ],
  ],
  [
    'failed',
    [
      'failed', 'failure', 'falhou', 'falha', 'recusado', 'recusada', 'rejected', 'rejeitado', 'rejeitada', 'denied',
      'nao realizado', 'nao realizada', 'nao pago', 'nao paga', 'not paid', 'unpaid', 'cancelado', 'cancelada',
      'canceled', 'cancelled', 'error', 'erro', 'expired', 'expirado',
    ],
  ],
  // Words that say the money moved come before "scheduled": "scheduled_bill_paid" is a payment.
  ['paid', ['paid', 'pago', 'paga', 'liquidado', 'liquidada', 'liquidated', 'settled']],
  ['scheduled', ['scheduled', 'agendado', 'agendada', 'agendamento']],
  // Words that only confirm come last: "agendamento confirmado" is a scheduling.
  [
    'paid',
    [
      'confirmado', 'confirmada', 'confirmed', 'realizado', 'realizada', 'efetuado', 'efetuada', 'concluido',
      'concluida', 'completed', 'success', 'successful', 'approved', 'aprovado',
    ],
  ],
];

const IN_WORDS = [
  'in', 'input', 'incoming', 'received', 'recebido', 'recebida', 'recebimento', 'credit', 'credito', 'entrada', 'cashin', 'cash in',
];
const OUT_WORDS = ['out', 'output', 'outgoing', 'sent', 'enviado', 'enviada', 'envio', 'debit', 'debito', 'saida', 'cashout', 'cash out'];

// Detail fields, by the names providers give them; compared without case or separators.
const ID_FIELDS = ['transactionId', 'transaction_id', 'idTransacao', 'id_transacao', 'txId', 'id'];
const LINE_FIELDS = ['typefulLine', 'digitableLine', 'linhaDigitavel', 'linha_digitavel', 'barcode', 'codigoBarras', 'code'];
const AMOUNT_FIELDS = ['amount', 'valor', 'amountPaid', 'valorPago'];
const DATE_FIELDS = ['settleDate', 'dataLiquidacao', 'paymentDate', 'dataPagamento'];
const REASON_FIELDS = ['reason', 'motivo', 'returnReason', 'motivoDevolucao'];
const STATUS_FIELDS = ['status', 'situacao', 'state', 'estado'];
const DIRECTION_FIELDS = ['direction', 'transactionType'];
const PIX_FIELDS = ['endToEndId', 'e2eId'];

/**
 * What a generic callback is about. A bill event (bill, boleto, payment slip, tributo, DARF, convênio; conta and
 * cobrança when no transfer word is present) is recognised by its type and category, else its title and subtitle,
 * else by a whole barcode or digit line (44 to 48 digits) in `detail`. Its phase comes from the same texts, else from
 * a status field of `detail`; a bill event whose phase cannot be told is unknown. Pix and TED events are recognised
 * by pix, ted or transfer words (a transfer that names neither is Pix when `detail` has an end-to-end id, else TED),
 * with the direction from words such as pix_in/pix_out, recebido/enviado, credit/debit.
 *
 * From `detail` (field names compared without case or separators): transaction id; digit line, digits only (a value
 * with letters is no line); amount as centavos (`centsOf`: a bare number in `billAmountUnit`, decimal text in reais);
 * settlement date as `YYYY-MM-DD`.
 * For returned and failed bills, the reason is `detail.reason` (or motivo, returnReason, motivoDevolucao), else any
 * string field of `detail`, the title or the subtitle that matches a row of SPEC.md's return table; `meaning` is
 * the meaning of the first of those texts that matches a row. Paid and scheduled bills have neither.
 */
export function classifyCallback(event: CallbackInput, billAmountUnit: AmountUnit | null): Classified {
  const subtitle = isRecord(event.raw) && typeof event.raw['subtitle'] === 'string' ? event.raw['subtitle'] : '';
  const texts = [wordsOf(`${event.type} ${event.category}`), wordsOf(`${event.title ?? ''} ${subtitle}`)];
  const fields = new Map(Object.entries(event.detail).map(([k, v]) => [fieldKey(k), v] as const));
  const field = (names: readonly string[]): unknown[] => names.map((n) => fields.get(fieldKey(n))).filter((v) => v !== undefined);

  const family = firstOf(texts, familyOf) ?? (field(LINE_FIELDS).some((v) => isFullLine(lineOf(v))) ? 'bill' : null);
  const transactionId = firstOf(field(ID_FIELDS), idOf);
  const amountCents = firstOf(field(AMOUNT_FIELDS), (v) => centsOf(v, billAmountUnit));
  if (family === 'transfer') {
    const all = texts.join(' ');
    const kind = has(all, PIX_WORDS) || (!has(all, TED_WORDS) && firstOf(field(PIX_FIELDS), textOf) !== null) ? 'pix' : 'ted';
    const direction = firstOf([...texts, ...field(DIRECTION_FIELDS).filter(isString).map(wordsOf)], directionOf);
    return { kind, direction, transactionId, amountCents };
  }
  if (family !== 'bill') return { kind: 'unknown' };

  const phase = firstOf([...texts, ...field(STATUS_FIELDS).filter(isString).map(wordsOf)], phaseOf);
  if (phase === null) return { kind: 'unknown' };
  const line = firstOf(field(LINE_FIELDS), lineOf);
  const settleDate = firstOf(field(DATE_FIELDS), providerDate);
  if (phase !== 'returned' && phase !== 'failed') {
    return { kind: 'bill', phase, transactionId, line, amountCents, settleDate, reason: null, meaning: null };
  }

  const given = firstOf(field(REASON_FIELDS), textOf);
  const reasonTexts = [given ?? '', ...Object.values(event.detail).filter(isString), event.title ?? '', subtitle];
  const matched = firstOf(reasonTexts, (text) => {
    const row = matchBillReturnReason(text);
    return row === null ? null : { text: text.trim(), meaning: row.meaning };
  });
  const reason = given ?? matched?.text ?? null;
  return { kind: 'bill', phase, transactionId, line, amountCents, settleDate, reason, meaning: matched?.meaning ?? null };
}

/** Whole words of a text, space separated and padded with a space at each end, for `has`. */
function wordsOf(text: string): string {
  return ` ${splitWords(text).join(' ')} `;
}

function has(words: string, list: readonly string[]): boolean {
  return list.some((entry) => words.includes(` ${entry} `));
}

function familyOf(words: string): 'bill' | 'transfer' | null {
  if (has(words, BILL_WORDS)) return 'bill';
  if (has(words, TRANSFER_WORDS)) return 'transfer';
  return has(words, WEAK_BILL_WORDS) ? 'bill' : null;
}

function phaseOf(words: string): BillPhase | null {
  return PHASE_WORDS.find(([, list]) => has(words, list))?.[0] ?? null;
}

/** `in` or `out` when the words say exactly one of them. */
function directionOf(words: string): 'in' | 'out' | null {
  const inward = has(words, IN_WORDS);
  return inward === has(words, OUT_WORDS) ? null : inward ? 'in' : 'out';
}

/** The first non-null result of `read` over `values`, in order. */
function firstOf<T, R>(values: readonly T[], read: (value: T) => R | null): R | null {
  for (const value of values) {
    const result = read(value);
    if (result !== null) return result;
  }
  return null;
}

function fieldKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A non-empty string, or a whole number written in decimal. */
function idOf(value: unknown): string | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : textOf(value);
}

/** The digits of a line written with digits, spaces, dots or hyphens only. */
function lineOf(value: unknown): string | null {
  return typeof value === 'string' && /^[\d\s.-]*\d[\d\s.-]*$/.test(value) ? value.replace(/\D/g, '') : null;
}

/** 44 to 48 digits: a barcode (44) or a digit line (47 for bank slips, 48 for utility and government bills). */
function isFullLine(digits: string | null): boolean {
  return digits !== null && digits.length >= 44 && digits.length <= 48;
}

/**
 * An amount of `detail` in centavos: text with a decimal point or comma is reais; a bare number is in the bill
 * amount unit the profile sets (the unit of the provider's bill answers). With the unit unset, or a fraction of a
 * centavo, the amount is not known (null): never a guess that is 100 times off.
 */
function centsOf(value: unknown, unit: AmountUnit | null): number | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const bare = typeof value === 'number' || /^\s*\d+\s*$/.test(value);
  if (bare && unit === null) return null;
  if (bare && unit === 'cents') {
    const n = Number(value);
    return Number.isSafeInteger(n) && n >= 0 ? n : null;
  }
  const cents = reaisToCents(value);
  return cents.ok ? cents.value : null;
}
