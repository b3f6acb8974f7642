import { normalizeDocument, type DocumentType } from '../domain/document.js';
import { isUuid } from '../domain/uuid.js';
import { parseAmount } from '../domain/money.js';
import { ok, type Result } from '../domain/result.js';
import { ACCOUNT_TYPE_CELLS, parseAccountReference, type AccountType, type DestinationType } from '../domain/account-destination.js';
import { checkPixKey, parsePixKeyType, type PixKeyCheck, type PixKeyType } from '../domain/pix-key.js';
import { FirstLines } from './first-lines.js';
import { SHEET_FIELDS, templateHeader, type SheetField } from './headers.js';
import type { ReadSheet, SheetRow } from './read-sheet.js';
import type { RowReason } from '../domain/sheet-reason.js';

/**
 * The most characters a row's description may have: the Pix payer message (remittance information) carries 140,
 * so a longer text would be cut by the provider or refused.
 */
const MAX_DESCRIPTION_LENGTH = 140;

/** A row that passed every offline rule, ready to become a ledger item. */
export interface ValidRow {
  line: number;
  /** The key in the DICT's canonical form (digits, "+55…", lower-case e-mail, lower-case UUID). */
  key: string;
  /** The type given in the sheet, or detected from the key; `account` for a remittance's title paid to an account (the key is then its accountReference). */
  keyType: DestinationType;
  /** For an account: its kind. */
  accountType: AccountType | null;
  /** Amount in centavos, > 0. */
  amountCents: number;
  /** Whitespace collapsed to single spaces; '' when the sheet has none. */
  description: string;
  /** Lower-case UUID when the sheet gave one; null when paybatch must derive it. */
  identifier: string | null;
  name: string | null;
  document: { type: DocumentType; value: string } | null;
}

export interface RowProblem {
  readonly file: string;
  readonly line: number;
  /** The column as the sheet names it ("valor", "amount"), or "row" for the row as a whole. */
  readonly field: string;
  readonly reason: RowReason;
}

export interface SheetValidation {
  valid: ValidRow[];
  rejected: { row: SheetRow; problems: RowProblem[] }[];
  /** Every row problem, sorted by line (sheet-level problems stay in `ReadSheet.problems`). */
  problems: RowProblem[];
}

const ROW_FIELD = 'row';

/** What the row rules need besides the sheet: the limit per item. */
export interface RowRules {
  maxItemAmountCents: number | null;
}

/**
 * Validates every row of a sheet offline and reports every problem of every row, as `file:line field: reason`
 * with the sheet's own column names. Rules: the key is valid for its type, or for the type detected when none is
 * given; an 11-digit key that is both a valid CPF and a mobile number needs the type; the amount parses (ambiguous
 * `1.234` is refused) and is at most `maxItemAmountCents` (null: no limit); an identifier, when given, is a UUID not
 * used by an earlier row; a document, when given, is a valid CPF/CNPJ, and the very key when the key is a CPF or
 * CNPJ; the description has at most MAX_DESCRIPTION_LENGTH characters; the row's cells line up with the header's
 * columns (`SheetRow.misaligned`); a row with the same key, amount and description (case and spacing ignored) as an
 * earlier one is a duplicate, reported on the later line. When the sheet lacks a required column (see
 * `ReadSheet.problems`), nothing is validated and everything is empty.
 */
export function validateRows(sheet: ReadSheet, o: RowRules): SheetValidation {
  const result: SheetValidation = { valid: [], rejected: [], problems: [] };
  const validate = rowValidator(sheet, o);
  if (validate === null) return result;
  for (const row of sheet.rows) {
    const outcome = validate(row);
    if (outcome.valid !== null) {
      result.valid.push(outcome.valid);
      continue;
    }
    result.rejected.push({ row, problems: outcome.problems });
    for (const p of outcome.problems) result.problems.push(p);
  }
  return result;
}

/** One row's verdict: valid (and no problems), or its problems. */
export type RowOutcome = { valid: ValidRow; problems: readonly [] } | { valid: null; problems: RowProblem[] };

const NO_PROBLEMS: readonly [] = [];

/**
 * `validateRows` one row at a time, for a sheet read as a stream (`streamSheet`): feed it every row in order; it
 * keeps only what spotting duplicates needs (a few numbers per row, see `FirstLines`). Null when the sheet lacks a
 * required column (nothing is validated then).
 */
export function rowValidator(
  sheet: Pick<ReadSheet, 'file' | 'columns' | 'header' | 'language' | 'format'>,
  o: RowRules,
): ((row: SheetRow) => RowOutcome) | null {
  if (sheet.columns.key === undefined || sheet.columns.amount === undefined) return null;

  const label = fieldLabels(sheet);
  const remittance = sheet.format.kind === 'cnab240';
  const identifiers = new FirstLines(4);
  const payments = new FirstLines(2);

  return (row) => {
    const problems: RowProblem[] = [];
    const problem = (field: SheetField | typeof ROW_FIELD, reason: RowReason): void => {
      problems.push({ file: sheet.file, line: row.line, field: field === ROW_FIELD ? ROW_FIELD : label[field], reason });
    };
    const c = row.cells;

    if (row.misaligned !== null) problem(ROW_FIELD, row.misaligned);

    // Only a remittance's table addresses a payment by account (its titles are read and checked by the CNAB reader).
    const accountType = remittance && c.keyType !== undefined ? ACCOUNT_TYPE_CELLS[c.keyType] : undefined;
    const account = accountType !== undefined && c.key !== undefined ? parseAccountReference(c.key, accountType) : null;
    const key = account !== null ? NO_KEY : checkKey(c.key, c.keyType, label.keyType, sheet.columns.keyType !== undefined, sheet.language);
    if (key.field !== null && key.reason !== null) problem(key.field, key.reason);

    let amountCents: number | null = null;
    if (c.amount === undefined) {
      problem('amount', { code: 'amount_missing' });
    } else {
      const amount = parseAmount(c.amount);
      if (!amount.ok) {
        problem('amount', amount.error);
      } else if (o.maxItemAmountCents !== null && amount.value > o.maxItemAmountCents) {
        problem('amount', { code: 'amount_above_item_limit', amountCents: amount.value, limitCents: o.maxItemAmountCents });
      } else {
        amountCents = amount.value;
      }
    }

    let identifier: string | null = null;
    if (c.identifier !== undefined) {
      const id = c.identifier.toLowerCase();
      if (!isUuid(id)) {
        problem('identifier', { code: 'identifier_not_uuid', cell: c.identifier });
      } else if (/^[0-]+$/.test(id)) {
        problem('identifier', { code: 'identifier_nil' });
      } else {
        const first = identifiers.firstLine(readUuid(id), row.line);
        if (first !== null) problem('identifier', { code: 'identifier_twice', firstLine: first });
        identifier = id;
      }
    }

    let document: ValidRow['document'] = null;
    if (c.document !== undefined) {
      const doc = sameDocument(c.document, c.key, key.check) ?? normalizeDocument(c.document);
      if (!doc.ok) {
        problem('document', doc.error);
      } else if (key.check?.valid && (key.check.type === 'cpf' || key.check.type === 'cnpj') && key.check.normalized !== doc.value.value) {
        problem('document', { code: 'document_not_key', document: c.document, keyType: key.check.type, key: c.key ?? '' });
      } else {
        document = doc.value;
      }
    }

    const description = c.description === undefined ? '' : collapse(c.description);
    // Counted in characters (code points), which only matters when the UTF-16 length is over the limit.
    const length = description.length > MAX_DESCRIPTION_LENGTH ? [...description].length : description.length;
    if (length > MAX_DESCRIPTION_LENGTH) {
      problem('description', { code: 'description_too_long', length, max: MAX_DESCRIPTION_LENGTH });
    }

    const keyCheck = key.check;
    const to: { type: DestinationType; key: string } | null = account !== null
      ? { type: 'account', key: c.key! }
      : keyCheck?.valid && keyCheck.type !== null && keyCheck.normalized !== null ? { type: keyCheck.type, key: keyCheck.normalized } : null;
    if (to !== null && amountCents !== null) {
      const first = payments.firstLine(hashPayment(to.type, to.key, amountCents, description), row.line);
      if (first !== null) problem(ROW_FIELD, { code: 'duplicate_row', firstLine: first });

      if (problems.length === 0) {
        return {
          valid: {
            line: row.line,
            key: to.key,
            keyType: to.type,
            accountType: account?.accountType ?? null,
            amountCents,
            description,
            identifier,
            name: c.name === undefined ? null : collapse(c.name),
            document,
          },
          problems: NO_PROBLEMS,
        };
      }
    }
    return { valid: null, problems };
  };
}

/** A payment's key in `payments`: two 32-bit hashes (module state, so no object per row). */
const paymentHash = new Int32Array(2);

/**
 * Hashes a payment (type, key, amount, lower-case description) into `paymentHash`: 64 bits in two lanes, FNV-1a and a
 * murmur-style multiply, over the fields, each ended by a separator. Two payments with the same 64-bit hash count as
 * the same: at a million rows a false duplicate has odds of about 1 in 30 million.
 */
function hashPayment(type: string, key: string, amountCents: number, description: string): Int32Array {
  paymentHash[0] = 0x811c9dc5;
  paymentHash[1] = 0x9747b28c;
  hashText(type, false);
  hashText(key, false);
  const low = amountCents % 0x100000000;
  const high = Math.floor(amountCents / 0x100000000);
  paymentHash[0] = Math.imul(Math.imul((paymentHash[0] as number) ^ low, 0x01000193) ^ high, 0x01000193);
  paymentHash[1] = Math.imul(Math.imul((paymentHash[1] as number) ^ high, 0x5bd1e995) ^ low, 0x5bd1e995);
  hashText(description, true);
  return paymentHash;
}

/**
 * Adds a text to both lanes, then a separator. `foldCase` hashes it as `toLowerCase()` would give it, without making
 * that string: A–Z and Latin-1's upper-case letters (À–Þ but ×) fold by 32, the only changes below U+0100; a text with
 * a later character is lower-cased whole.
 */
function hashText(text: string, foldCase: boolean): void {
  let fnv = paymentHash[0] as number;
  let mul = paymentHash[1] as number;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (foldCase && c >= 0x41) {
      if (c <= 0x5a || (c >= 0xc0 && c <= 0xde && c !== 0xd7)) c += 32;
      else if (c >= 0x100) return hashText(text.toLowerCase(), false);
    }
    fnv = Math.imul(fnv ^ c, 0x01000193);
    mul = Math.imul(mul ^ c, 0x5bd1e995);
    mul ^= mul >>> 15;
  }
  paymentHash[0] = Math.imul(fnv ^ 0xffff, 0x01000193);
  paymentHash[1] = Math.imul(mul ^ 0xffff, 0x5bd1e995);
}

/** An identifier's key in `identifiers`: the UUID's 128 bits, exact (module state, so no object per row). */
const uuidBits = new Int32Array(4);

/** The 128 bits of a UUID (8-4-4-4-12 hexadecimal digits, as `isUuid` checks) into `uuidBits`. */
function readUuid(uuid: string): Int32Array {
  let word = 0;
  let digits = 0;
  for (let i = 0; i < uuid.length; i++) {
    const c = uuid.charCodeAt(i);
    if (c === 0x2d) continue;
    word = (word << 4) | (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
    if (++digits % 8 === 0) uuidBits[digits / 8 - 1] = word;
  }
  return uuidBits;
}

/** The name each field goes by in messages: the sheet's own header text, or the template's name when absent. */
function fieldLabels(sheet: Pick<ReadSheet, 'columns' | 'header' | 'language'>): Record<SheetField, string> {
  const labels = {} as Record<SheetField, string>;
  for (const field of SHEET_FIELDS) {
    const index = sheet.columns[field];
    const text = index === undefined ? '' : (sheet.header[index] ?? '').trim();
    labels[field] = text === '' ? templateHeader(field, sheet.language) : text;
  }
  return labels;
}

interface KeyOutcome {
  check: PixKeyCheck | null;
  field: 'key' | 'keyType' | null;
  reason: RowReason | null;
}

/** An account title's outcome: no key to check. */
const NO_KEY: KeyOutcome = Object.freeze({ check: null, field: null, reason: null });

/** The key type each cell text means (parsePixKeyType is pure, and normalizing Unicode on every row costs). */
const KEY_TYPE_WORDS_SEEN = new Map<string, PixKeyType | null>();

function checkKey(
  key: string | undefined,
  typeCell: string | undefined,
  typeLabel: string,
  hasTypeColumn: boolean,
  lang: 'pt' | 'en',
): KeyOutcome {
  let type: PixKeyType | undefined;
  if (typeCell !== undefined) {
    let parsed = KEY_TYPE_WORDS_SEEN.get(typeCell);
    if (parsed === undefined) {
      parsed = parsePixKeyType(typeCell);
      // A sheet uses a handful of spellings; the bound keeps a sheet of garbage types from growing the cache.
      if (KEY_TYPE_WORDS_SEEN.size < 256) KEY_TYPE_WORDS_SEEN.set(typeCell, parsed);
    }
    if (parsed === null) return { check: null, field: 'keyType', reason: { code: 'key_type_unknown', cell: typeCell } };
    type = parsed;
  }
  if (key === undefined) return { check: null, field: 'key', reason: { code: 'key_missing' } };

  const check = checkPixKey(key, type);
  if (check.reason !== null) {
    let reason: RowReason = check.reason;
    if (/^\d+(?:[.,]\d+)?e\+?\d+$/i.test(key)) {
      reason = { code: 'key_scientific_notation', key };
    } else if (type !== undefined) {
      const detected = checkPixKey(key);
      if (detected.valid && detected.type !== null && detected.type !== type) {
        reason = { code: 'key_looks_like', reason: check.reason, looksLike: detected.type, typeColumn: typeLabel };
      }
    }
    return { check, field: 'key', reason };
  }
  if (check.ambiguousWith.length > 0) {
    return { check, field: 'key', reason: { code: 'key_ambiguous', typeColumn: typeLabel, hasTypeColumn, sheetLanguage: lang } };
  }
  return { check, field: null, reason: null };
}

/**
 * The document when its cell is the very text of a valid CPF or CNPJ key (sheets often give both columns the
 * same text): the key's own reading, which is what `normalizeDocument` would make of that text, without reading it
 * again. Only for a key without parentheses, which a key's CPF may hold and a document may not. Null otherwise.
 */
function sameDocument(document: string, key: string | undefined, check: PixKeyCheck | null): Result<{ type: DocumentType; value: string }, never> | null {
  if (document !== key || !check?.valid || check.normalized === null || (check.type !== 'cpf' && check.type !== 'cnpj')) return null;
  if (key.includes('(') || key.includes(')')) return null;
  return ok({ type: check.type, value: check.normalized });
}

function collapse(text: string): string {
  // Most cells are words with single spaces already: checking costs no new string.
  return isSingleSpaced(text) ? text : text.replace(/\s+/g, ' ').trim();
}

/** True when `text` is what collapsing leaves as it is: no whitespace (as `\s` means it) but single spaces between words. */
function isSingleSpaced(text: string): boolean {
  let afterSpace = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if ((c >= 0x09 && c <= 0x0d) || (c >= 0xa0 && isOtherWhitespace(c))) {
      return false;
    } else {
      afterSpace = false;
    }
  }
  return !afterSpace || text.length === 0;
}

/** `\s` above U+009F: no-break and Unicode spaces, line and paragraph separators, the byte order mark. */
function isOtherWhitespace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
