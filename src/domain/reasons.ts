/**
 * Why a payment came back: bill return reasons (SPEC.md, "Return of a bill payment") and Pix rejection and
 * return codes, as data, with the lenient matching the provider's free text needs.
 */
import { splitWords } from './provider-words.js';

// ---------------------------------------------------------------------------------------------------------------
// Bill returns

export interface BillReturnReason {
  /** The reason as SPEC.md writes it, code prefix included. */
  readonly received: string;
  /** The meaning given to the client. */
  readonly meaning: string;
  /** Slug grouping rows of the same meaning, stable for JSON output and tests. */
  readonly family: BillReturnFamily;
}

/** SPEC.md "Return of a bill payment", every row, in its order and wording: received, meaning, family. */
const BILL_RETURN_ROWS = [
  ['12 - validity or due date expired, payment after due date not allowed', 'due date expired', 'due-date-expired'],
  ['10 - payment not authorized, value differs from the one informed by the beneficiary', 'value differs from the central registry', 'value-differs'],
  ['23 - bill cannot be received because it is settled', 'bill already paid', 'already-paid'],
  ['23 - bill cannot be received because it is written off', 'bill already written off', 'written-off'],
  ['Occurrence AJ - invalid movement type', 'generic refusal; contact support', 'generic-refusal'],
  ['Duplicate transfer by the receiving institution', 'bill already paid', 'already-paid'],
  ['Bill received with a discount or rebate not foreseen on the bill', 'value differs from the central registry', 'value-differs'],
  ['Bill payment differs from the centralized base', 'information differs from the central registry', 'registry-mismatch'],
  ['Barcode does not follow the specification', 'information differs from the central registry', 'registry-mismatch'],
  ['Bill does not exist in the centralized base', 'bill not found', 'not-found'],
  ['14 - bill blocked for payment', 'bill already written off', 'written-off'],
  ['276 - bill already received on this date', 'bill received within the same day', 'same-day'],
  ['NC - registered value differs in the registry or is not updated for payment', 'value differs from the central registry', 'value-differs'],
  ['H6 - other reasons for withholding', 'generic refusal; contact support', 'generic-refusal'],
  ['Invalid barcode', 'information differs from the central registry', 'registry-mismatch'],
  ['Return of fraudulent payment (documents with barcode)', 'payment identified as fraud', 'fraud'],
  ['Bill at a notary or protested', 'bill protested', 'protested'],
  ['13 - payment deadline exceeded', 'payment deadline exceeded', 'deadline-exceeded'],
  ['Already paid', 'bill already paid', 'already-paid'],
  ['Bill differs from the centralized base', 'bill differs from the central registry', 'bill-differs'],
  ['2 - operation failed', 'generic refusal; contact support', 'generic-refusal'],
] as const;

/** The meanings a bill return can have (the words for people are at the edge, src/words/payment-reasons.ts). */
export type BillReturnFamily = (typeof BILL_RETURN_ROWS)[number][2];

export const BILL_RETURN_REASONS: readonly BillReturnReason[] = Object.freeze(
  BILL_RETURN_ROWS.map(([received, meaning, family]) => Object.freeze({ received, meaning, family })),
);

/** Words a provider may put before a reason code ("Occurrence AJ", "Ocorrência AJ", "Código 12"). */
const CODE_LABELS = ['occurrence', 'ocorrencia', 'ocorr', 'occ', 'codigo', 'code', 'cod', 'motivo', 'reason'];
const SPEC_CODE = /^(?:occurrence\s+)?([a-z0-9]{1,3})\s*-\s*(.+)$/i;

/** Lower case, no accents, every run of other characters a single space. */
function words(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Letters and digits only, so that missing or extra spacing and punctuation do not matter. */
function compact(text: string): string {
  return words(text).replace(/ /g, '');
}

/**
 * Every spelling of a row that counts as that row: its text alone, or preceded by its own code, bare or after a
 * label. Built as exact keys rather than patterns so that similar rows can never swallow each other.
 */
const billReasonByKey: ReadonlyMap<string, BillReturnReason> = (() => {
  const map = new Map<string, BillReturnReason>();
  const add = (key: string, reason: BillReturnReason): void => {
    const existing = map.get(key);
    if (existing !== undefined && existing !== reason) {
      throw new Error(`bill return reasons "${existing.received}" and "${reason.received}" are indistinguishable`);
    }
    map.set(key, reason);
  };
  for (const reason of BILL_RETURN_REASONS) {
    const spec = SPEC_CODE.exec(reason.received);
    const body = compact(spec?.[2] ?? reason.received);
    add(body, reason);
    const code = spec?.[1];
    if (code !== undefined) {
      add(compact(code) + body, reason);
      for (const label of CODE_LABELS) add(label + compact(code) + body, reason);
    }
  }
  return map;
})();

/** Codes shared by several rows ("23") say nothing alone; the others identify their row. */
const billReasonByCode: ReadonlyMap<string, BillReturnReason> = (() => {
  const byCode = new Map<string, BillReturnReason[]>();
  for (const reason of BILL_RETURN_REASONS) {
    const code = SPEC_CODE.exec(reason.received)?.[1];
    if (code !== undefined) byCode.set(compact(code), [...(byCode.get(compact(code)) ?? []), reason]);
  }
  const map = new Map<string, BillReturnReason>();
  for (const [code, rows] of byCode) {
    const only = rows.length === 1 ? rows[0] : undefined;
    if (only === undefined) continue;
    map.set(code, only);
    for (const label of CODE_LABELS) map.set(label + code, only);
  }
  return map;
})();

const LABEL = new RegExp(`^(?:${CODE_LABELS.join('|')})(?![a-z0-9])\\.?\\s*`, 'i');
const LEADING_TOKEN = /^([A-Za-z0-9]{1,4})(?![A-Za-z0-9])\s*([-\u2010-\u2015:.)])?\s*/;

/**
 * The text after a leading code this table does not know ("99 - Already paid"), or null when there is none. Only
 * tokens that look like codes count: after a label, containing a digit, or in capitals followed by a separator,
 * so that a sentence starting with a short word ("Not already paid") keeps its meaning.
 */
function afterForeignCode(text: string): string | null {
  let rest = text.normalize('NFD').replace(/\p{M}/gu, '').trim();
  const label = LABEL.exec(rest);
  if (label !== null) rest = rest.slice(label[0].length);
  const token = LEADING_TOKEN.exec(rest);
  if (token === null) return null;
  const code = token[1] ?? '';
  const looksLikeCode = label !== null || /\d/.test(code) || (token[2] !== undefined && /^[A-Z0-9]+$/.test(code));
  return looksLikeCode ? rest.slice(token[0].length) : null;
}

/**
 * The SPEC row a provider's return reason text means, or null when it is none of them. Lenient about case, accents,
 * spacing, punctuation and a leading code ("12 - ", "12-", "12 –", "Occurrence AJ", "Ocorrência AJ", "NC - "),
 * which may be absent; rows sharing a code are told apart by their text. A known code alone ("276") matches its
 * row when no other row shares it.
 */
export function matchBillReturnReason(text: string): BillReturnReason | null {
  const whole = compact(text);
  if (whole === '') return null;
  const direct = billReasonByKey.get(whole) ?? billReasonByCode.get(whole);
  if (direct !== undefined) return direct;
  const rest = afterForeignCode(text);
  return rest === null ? null : (billReasonByKey.get(compact(rest)) ?? null);
}

// ---------------------------------------------------------------------------------------------------------------
// Pix rejections and returns

/** `reprocess`: instability of the instant-payment scheme, a new attempt may succeed. `final`: report, do not retry. */
export type PixReasonAction = 'reprocess' | 'final';

export interface PixReason {
  /** ISO 20022 reason code as used in the SPI, upper case. */
  readonly code: string;
  readonly description: string;
  /** `rejection`: the payment was refused (pacs.002 RJCT). `return`: a settled payment came back (pacs.004). */
  readonly kind: 'rejection' | 'return';
  readonly action: PixReasonAction;
}

/*
 * Sources: Banco Central do Brasil, Catálogo de Mensagens e Serviços do SPI (ExternalStatusReason1Code for
 * pacs.002 rejections; ExternalReturnReason1Code for pacs.004 returns, which accepts only BE08, FR01, MD06, SL02),
 * as tabulated in Woovi/OpenPix "Códigos de Erro de Pagamento PIX"
 * (https://developers.woovi.com/docs/flows/error-codes-payment) and in the SPI message guides that quote the
 * catalogue 5.13. Descriptions are ours, from the payer's side.
 *
 * Only timeouts and operational errors of the settlement chain are `reprocess`. BE08 is `final` although it means
 * an operational failure: the catalogue uses it also when the payer's own institution asked for the money back
 * because of its own error (a duplicate, a wrong amount), and paying again by ourselves could pay twice.
 */
const PIX_ROWS = [
  ['AB03', 'Settlement aborted: timeout in the instant payment system (SPI)', 'rejection', 'reprocess'],
  ['AB09', "Transaction interrupted by an error at the receiver's institution", 'rejection', 'reprocess'],
  ['AB11', "Timeout at the payer's institution, which issued the payment order", 'rejection', 'reprocess'],
  ['AC03', "Receiver's branch or account number does not exist or is invalid", 'rejection', 'final'],
  ['AC06', "Receiver's account is blocked", 'rejection', 'final'],
  ['AC07', "Receiver's account is closed", 'rejection', 'final'],
  ['AC14', "Wrong account type for the receiver's account", 'rejection', 'final'],
  ['AG03', "Transaction type not supported or not allowed on the receiver's account (e.g. a salary account)", 'rejection', 'final'],
  ['AM02', 'Amount above the limit allowed for the type of the credited account', 'rejection', 'final'],
  ['AM04', "Insufficient balance in the settlement (PI) account of the payer's institution", 'rejection', 'final'],
  ['AM09', 'Wrong amount: a return above the amount of the original payment', 'rejection', 'final'],
  ['BE01', "Receiver's CPF/CNPJ is not consistent with the holder of the account", 'rejection', 'final'],
  ['BE17', "Creditor identification invalid: QR code rejected by the receiver's institution", 'rejection', 'final'],
  ['CH11', "Receiver's CPF/CNPJ is incorrect", 'rejection', 'final'],
  ['DS27', 'Participant not registered in the SPI or not yet operating', 'rejection', 'final'],
  ['ED05', 'Settlement failed: generic error processing the instant payment', 'rejection', 'reprocess'],
  ['RR04', 'Regulatory reason: payer sanctioned by a UN Security Council resolution', 'rejection', 'final'],
  ['SL02', 'Return refused: the original payment is not a Pix Saque or Pix Troco', 'rejection', 'final'],
  ['BE08', "Returned because of an operational failure (bank error) at the payer's or the receiver's institution", 'return', 'final'],
  ['FR01', 'Returned for well-founded suspicion of fraud (special return mechanism, MED)', 'return', 'final'],
  ['MD06', 'Refund requested by the end customer who received the payment', 'return', 'final'],
  ['SL02', "Returned for a specific service of the receiver's institution (Pix Saque or Pix Troco)", 'return', 'final'],
] as const;

type PixRow = (typeof PIX_ROWS)[number];
/** The rejection codes (pacs.002) paybatch knows. */
export type PixRejectionCode = Extract<PixRow, readonly [string, string, 'rejection', string]>[0];
/** The return codes (pacs.004) paybatch knows. */
export type PixReturnCode = Extract<PixRow, readonly [string, string, 'return', string]>[0];

export const PIX_REASONS: readonly PixReason[] = Object.freeze(
  PIX_ROWS.map(([code, description, kind, action]) => Object.freeze({ code, description, kind, action })),
);

/**
 * The Pix reason for a code (case-insensitive, trimmed), or null when unknown (callers treat unknown as final).
 * SL02 is both a rejection and a return code: pass `kind` to choose; without it the rejection comes first.
 */
export function classifyPixReason(code: string, kind?: PixReason['kind']): PixReason | null {
  const wanted = code.trim().toUpperCase();
  return PIX_REASONS.find((r) => r.code === wanted && (kind === undefined || r.kind === kind)) ?? null;
}

/**
 * Instability of the instant-payment scheme, as whole words (see `splitWords`): codes, timeouts, outages. "SPI" alone
 * is not one: final reasons name it too ("the receiver's institution does not operate in the SPI", DS27).
 */
const INSTABILITY_WORDS = [
  'ab03', 'ab09', 'ab11', 'ed05', 'instabilidade', 'instabilidades', 'instability', 'instabilities',
  'indisponibilidade', 'indisponivel', 'unavailable', 'unavailability', 'timeout', 'timeouts', 'time out', 'timed out',
  'tempo esgotado',
];

/**
 * True when a reason text speaks of instability of the instant-payment scheme: an instability code (AB03, AB09,
 * AB11, ED05), or words of instability, unavailability or timeout in English or Portuguese, anywhere in the
 * text, or one of `extraWords`. Everything matches as whole words, ignoring case, accents and punctuation, with
 * camel case split ("SPITimeout" is "SPI timeout"). Null is false.
 */
export function isInstabilityReason(reason: string | null, extraWords: readonly string[] = []): boolean {
  const text = ` ${splitWords(reason ?? '').join(' ')} `;
  return [...INSTABILITY_WORDS, ...extraWords].some((word) => {
    const phrase = splitWords(word).join(' ');
    return phrase !== '' && text.includes(` ${phrase} `);
  });
}

/**
 * What to do about a returned Pix payment, from the reason text a provider sends ("AB03 - Timeout…", "AB03", or
 * free text). The first known Pix reason code in the text (as a whole word) decides, so "FR01 - fraud, SPI" stays
 * final; without one, a text that `isInstabilityReason` (with `extraWords`) recognises is reprocessed. Anything
 * else, unknown included, is final, because paying again on a guess could pay twice.
 */
export function returnActionFor(reasonText: string | null, extraWords: readonly string[] = []): PixReasonAction {
  for (const word of splitWords(reasonText ?? '')) {
    const known = /^[a-z]{2}\d{2}$/.test(word) ? classifyPixReason(word) : null;
    if (known !== null) return known.action;
  }
  return isInstabilityReason(reasonText, extraWords) ? 'reprocess' : 'final';
}
