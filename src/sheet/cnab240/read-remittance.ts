/**
 * Reading a CNAB 240 payment remittance (an ERP's "remessa de pagamentos") through its bank's layout (layouts.ts):
 * every line 240 positions, records in order (file header, lots of header-details-trailer, file trailer), the
 * trailers' counts and sums equal to the details. Any problem refuses the whole file, each naming its line and the
 * positions of the field, as a bank refuses a lot ("TA — lote não aceito"): nothing of a damaged file is paid.
 */
import type { AccountDestination } from '../../domain/account-destination.js';
import { checkPixKey, type PixKeyType } from '../../domain/pix-key.js';
import type { Cnab240FieldName, Cnab240Reason, SheetProblem } from '../../domain/sheet-reason.js';
import { cut, type Cnab240Layout, type Field, type FormKind } from './layout.js';
import { layoutNamed, layoutOfBank } from './layouts.js';
import { parseDocument, type CnabDocument } from './cnab-document.js';

export type { CnabDocument } from './cnab-document.js';

export const CNAB_LINE = 240;

/** One title of the remittance: a payment (segment A, with its B) or a bill (segment J, with its J-52). */
export interface RemittanceTitle {
  /** The line of its segment A or J: the title's line in problems, the ledger and the return file. */
  readonly line: number;
  readonly lot: number;
  /** What it pays: a Pix key, an account (Pix by account data, or a credit/TED form) or a bill. */
  readonly kind: FormKind;
  /** The lot's payment form (lot header positions 12-13). */
  readonly form: string;
  readonly amountCents: number;
  /** YYYY-MM-DD. */
  readonly paymentDate: string;
  /** "Seu número", trimmed: the ERP's id of the title. */
  readonly yourNumber: string;
  readonly payeeName: string;
  readonly payeeDocument: CnabDocument | null;
  readonly pixKey: { readonly type: PixKeyType; readonly key: string } | null;
  /** The payee's account (segment A), for a payment to an account; null when it cannot be read (the title is flagged). */
  readonly account: AccountDestination | null;
  /** The bill's 44-digit bar code (segment J). */
  readonly barcode: string | null;
  /** The title's records as read (A and B, or J and J-52), for the return file. */
  readonly records: readonly string[];
}

export interface RemittanceLot {
  readonly number: number;
  readonly header: string;
  readonly service: string;
  readonly form: string;
  readonly titles: readonly RemittanceTitle[];
  /** What its trailer says (equal to the details, or the file is refused). */
  readonly recordCount: number;
  readonly amountSumCents: number;
}

export interface Remittance {
  readonly layout: Cnab240Layout;
  /** How its bytes were text: the return file is written back in the same encoding. */
  readonly encoding: 'utf-8' | 'windows-1252';
  readonly bank: string;
  readonly version: string;
  readonly company: CnabDocument;
  readonly companyName: string;
  readonly fileHeader: string;
  readonly lots: readonly RemittanceLot[];
  readonly titles: readonly RemittanceTitle[];
  /**
   * What the file says that cannot be paid as written, each naming its line and positions: an invalid document or
   * key, an unknown key type, a zero amount. The file's structure is sound; an import refuses these titles.
   */
  readonly problems: readonly SheetProblem[];
}

export type RemittanceReading = { readonly remittance: Remittance; readonly problems: readonly [] } | { readonly remittance: null; readonly problems: readonly SheetProblem[] };

/**
 * Whether a file's first bytes look like a CNAB 240 file: a first line of 240 positions that is a file header, read
 * as Windows-1252 or as UTF-8 (a name with accents in the header is more bytes than positions), after any BOM.
 */
export function looksLikeCnab240(head: Uint8Array): boolean {
  const bytes = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  const firstLine = (text: string) => text.slice(0, (text.search(/\r?\n/) + 1 || text.length + 1) - 1);
  return [Buffer.from(bytes).toString('latin1'), new TextDecoder('utf-8').decode(bytes)].some((text) => {
    const first = firstLine(text);
    return first.length === CNAB_LINE && /^\d{3}00000/.test(first);
  });
}

/**
 * Reads a remittance's text (pure; `file` names it in problems). `pinned` is the layout the profile pins
 * (`cnabLayout`); otherwise the file header's bank chooses it, and a bank no layout names is refused.
 */
export function readRemittance(text: string, file: string, pinned?: string, encoding: Remittance['encoding'] = 'utf-8'): RemittanceReading {
  // DOS editors end a file with Ctrl-Z (0x1A): not a line.
  const lines = text.replace(/\x1a$/, '').replace(/(\r?\n)+$/, '').split(/\r?\n/);
  const problems: SheetProblem[] = [];
  const problem = (line: number, field: Field | null, reason: Cnab240Reason) =>
    problems.push({ file, line, ...(field ? { field: `${field.at[0]}-${field.at[1]}` } : {}), reason });
  lines.forEach((l, i) => {
    if (l.length !== CNAB_LINE) problem(i + 1, null, { code: 'cnab_line_length', length: l.length });
  });
  if (problems.length) return { remittance: null, problems };

  const header = lines[0]!;
  const bank = header.slice(0, 3);
  const layout = pinned !== undefined ? layoutNamed(pinned) : layoutOfBank(bank);
  if (!layout) {
    problem(1, { at: [1, 3], kind: 'num' }, { code: 'cnab_bank_unknown', bank });
    return { remittance: null, problems };
  }
  const content: SheetProblem[] = [];
  const flag = (line: number, field: Field, reason: Cnab240Reason) => content.push({ file, line, field: `${field.at[0]}-${field.at[1]}`, reason });
  const reader = new RemittanceReader(layout, lines, problem, flag, encoding, pinned !== undefined);
  const remittance = reader.read();
  return problems.length || !remittance ? { remittance: null, problems } : { remittance: { ...remittance, problems: content }, problems: [] };
}

type Problem = (line: number, field: Field | null, reason: Cnab240Reason) => void;
type Flag = (line: number, field: Field, reason: Cnab240Reason) => void;

/** Walks the lines of one remittance in order, collecting its lots and titles, and every problem on the way. */
class RemittanceReader {
  #at = 0;
  constructor(
    private readonly layout: Cnab240Layout,
    private readonly lines: readonly string[],
    private readonly problem: Problem,
    private readonly flag: Flag,
    private readonly encoding: Remittance['encoding'],
    /** A layout the profile pins is taken for whatever version the file says: that is what pinning asserts. */
    private readonly pinned: boolean,
  ) {}

  read(): Remittance | null {
    const { layout } = this;
    const h = layout.fileHeader;
    const header = this.lines[0]!;
    if (!this.expect(header, 1, '0', 'file header')) return null;
    const bank = cut(header, h.bank);
    const version = cut(header, h.version);
    if (!this.pinned && !layout.versions.includes(version)) {
      this.problem(1, h.version, { code: 'cnab_version_unknown', version, layout: layout.id, known: layout.versions });
    }
    if (cut(header, h.direction) !== '1') this.problem(1, h.direction, { code: 'cnab_not_remittance', direction: cut(header, h.direction) });
    const company = this.document(header, 1, h.companyDocType, h.companyDoc, 'companyDoc');
    this.#at = 1;
    const lots: RemittanceLot[] = [];
    while (this.#at < this.lines.length && this.recordType(this.#at) === '1') {
      const lot = this.lot(lots.length + 1, bank);
      if (lot) lots.push(lot);
    }
    const trailer = this.lines[this.#at];
    const line = this.#at + 1;
    if (trailer === undefined) {
      this.problem(this.lines.length, null, { code: 'cnab_file_unfinished', expected: 'file trailer' });
      return null;
    }
    if (!this.expect(trailer, line, '9', 'file trailer or lot header')) return null;
    this.sameBank(trailer, line, bank);
    if (line !== this.lines.length) this.problem(line + 1, layout.fileHeader.recordType, { code: 'cnab_record_unexpected', found: this.recordType(line), expected: 'end of file' });
    const t = layout.fileTrailer;
    const lotCount = this.number(trailer, line, t.lotCount, 'lotCount');
    if (lotCount !== null && lotCount !== lots.length) this.problem(line, t.lotCount, { code: 'cnab_file_lots', written: lotCount, counted: lots.length });
    const recordCount = this.number(trailer, line, t.recordCount, 'recordCount');
    if (recordCount !== null && recordCount !== line) this.problem(line, t.recordCount, { code: 'cnab_file_records', written: recordCount, counted: line });
    this.checkYourNumbers(lots.flatMap((l) => l.titles));
    return {
      layout, encoding: this.encoding, bank, version, company,
      companyName: cut(header, h.companyName).trim(),
      fileHeader: header,
      lots,
      titles: lots.flatMap((l) => l.titles),
      problems: [],
    };
  }

  /** Each title's "seu número" is given, and only once in the file: it is how the title is known (and paid once). */
  private checkYourNumbers(titles: readonly RemittanceTitle[]): void {
    const first = new Map<string, number>();
    for (const t of titles) {
      const field = t.kind === 'bill' ? this.layout.segmentJ.yourNumber : this.layout.segmentA.yourNumber;
      const seen = first.get(t.yourNumber);
      if (t.yourNumber === '') this.flag(t.line, field, { code: 'cnab_your_number_missing' });
      else if (seen !== undefined) this.flag(t.line, field, { code: 'cnab_your_number_twice', yourNumber: t.yourNumber, firstLine: seen });
      else first.set(t.yourNumber, t.line);
    }
  }

  /** A lot from its header (at `#at`) to its trailer, leaving `#at` after the trailer. */
  private lot(expected: number, fileBank: string): RemittanceLot | null {
    const { layout } = this;
    const lh = layout.lotHeader;
    const start = this.#at;
    const header = this.lines[start]!;
    const headerLine = start + 1;
    this.sameBank(header, headerLine, fileBank);
    const number = this.number(header, headerLine, lh.lot, 'lot');
    if (number !== null && number !== expected) this.problem(headerLine, lh.lot, { code: 'cnab_lot_number', written: number, expected });
    const service = cut(header, lh.service);
    const form = cut(header, lh.form);
    // A payment remittance credits payees: operation C.
    if (cut(header, lh.operation) !== 'C') this.problem(headerLine, lh.operation, { code: 'cnab_operation', operation: cut(header, lh.operation) });
    const kind = layout.forms[form];
    if (kind === undefined) this.problem(headerLine, lh.form, { code: 'cnab_form_unknown', form, service });
    const titles: RemittanceTitle[] = [];
    let sum = 0;
    let summed = true;
    this.#at++;
    for (let sequence = 1; this.#at < this.lines.length && this.recordType(this.#at) === '3'; sequence++) {
      this.detailPlace(this.#at, number ?? expected, sequence);
      const before = this.#at;
      const title = this.title(kind ?? null, form, number ?? expected, fileBank);
      for (let next = before + 1; next < this.#at; next++) this.detailPlace(next, number ?? expected, ++sequence);
      if (title) {
        titles.push(title);
        sum += title.amountCents;
      } else summed = false;
    }
    const trailer = this.lines[this.#at];
    if (trailer === undefined) {
      this.problem(this.lines.length, null, { code: 'cnab_file_unfinished', expected: 'lot trailer' });
      return null;
    }
    const line = this.#at + 1;
    this.#at++;
    if (!this.expect(trailer, line, '5', 'lot trailer or detail')) return null;
    this.sameBank(trailer, line, fileBank);
    const t = layout.lotTrailer;
    const records = this.number(trailer, line, t.recordCount, 'recordCount');
    const counted = line - start;
    if (records !== null && records !== counted) this.problem(line, t.recordCount, { code: 'cnab_lot_records', written: records, counted });
    const written = this.number(trailer, line, t.amountSum, 'amountSum');
    // A title whose amount could not be read is named already: its sum would only repeat it.
    if (written !== null && summed && written !== sum) this.problem(line, t.amountSum, { code: 'cnab_lot_sum', writtenCents: written, countedCents: sum });
    if (records === null || written === null) return null;
    return { number: number ?? expected, header, service, form, titles, recordCount: records, amountSumCents: written };
  }

  /** A title from its first detail (at `#at`): A with the B (and any other segment) after it, or J with its J-52. */
  private title(kind: FormKind | null, form: string, lot: number, fileBank: string): RemittanceTitle | null {
    const { layout } = this;
    const first = this.lines[this.#at]!;
    const line = this.#at + 1;
    this.#at++;
    this.sameBank(first, line, fileBank);
    const records = [first];
    // The title's other segments follow it until the next A or J (or the lot's end).
    while (this.#at < this.lines.length && this.recordType(this.#at) === '3' && !this.startsTitle(this.#at)) {
      this.sameBank(this.lines[this.#at]!, this.#at + 1, fileBank);
      records.push(this.lines[this.#at]!);
      this.#at++;
    }
    const segment = cut(first, layout.segmentA.segment);
    const expected = kind === 'bill' ? 'J' : 'A';
    if (kind !== null && segment !== expected) {
      this.problem(line, layout.segmentA.segment, { code: 'cnab_segment_unexpected', segment, form });
      return null;
    }
    if (kind === null) return null;
    return kind === 'bill' ? this.bill(records, line, lot, form) : this.payment(records, line, lot, form, kind);
  }

  private payment(records: string[], line: number, lot: number, form: string, formKind: FormKind): RemittanceTitle | null {
    const a = this.layout.segmentA;
    const [segA] = records;
    const amountCents = this.amount(segA!, line, a.amount);
    const paymentDate = this.date(segA!, line, a.paymentDate, 'paymentDate');
    const b = records.findIndex((r) => cut(r, this.layout.segmentB.segment) === 'B');
    const segB = b === -1 ? null : records[b]!;
    const bLine = line + b;
    let payeeDocument: CnabDocument | null = null;
    let pixKey: RemittanceTitle['pixKey'] = null;
    let kind = formKind;
    // Itaú writes the payee's document in segment A without its type: its length and check digits tell it.
    if (a.payeeDoc) payeeDocument = this.optionalDocument(segA!, line, null, a.payeeDoc);
    if (segB !== null) {
      const bf = this.layout.segmentB;
      payeeDocument ??= this.optionalDocument(segB, bLine, bf.payeeDocType, bf.payeeDoc);
      if (formKind === 'pix-key' && bf.keyKind && bf.pixKey) {
        const code = cut(segB, bf.keyKind).trim();
        const keyKind = this.layout.keyKinds[code] ?? this.layout.keyKinds[code.padStart(2, '0')];
        if (keyKind === undefined) this.flag(bLine, bf.keyKind, { code: 'cnab_key_kind_unknown', value: code });
        else if (keyKind === 'account') kind = 'account';
        else pixKey = this.key(segB, bLine, bf.pixKey, keyKind, payeeDocument);
      }
    } else if (formKind === 'pix-key') {
      this.problem(line, a.segment, { code: 'cnab_record_unexpected', found: 'A', expected: 'B' });
    }
    if (amountCents === null || paymentDate === null) return null;
    return {
      line, lot, kind, form, amountCents, paymentDate,
      yourNumber: cut(segA!, a.yourNumber).trim(),
      payeeName: cut(segA!, a.payeeName).trim(),
      payeeDocument,
      pixKey,
      account: kind === 'account' ? this.account(segA!, line, form) : null,
      barcode: null,
      records,
    };
  }

  private bill(records: string[], line: number, lot: number, form: string): RemittanceTitle | null {
    const j = this.layout.segmentJ;
    const [segJ] = records;
    const amountCents = this.amount(segJ!, line, j.amount);
    const paymentDate = this.date(segJ!, line, j.paymentDate, 'paymentDate');
    if (amountCents === null || paymentDate === null) return null;
    return {
      line, lot, kind: 'bill', form, amountCents, paymentDate,
      yourNumber: cut(segJ!, j.yourNumber).trim(),
      payeeName: cut(segJ!, j.payeeName).trim(),
      // The J-52's beneficiary is what the bill says; the bill is paid by its bar code and checked against the provider's details.
      payeeDocument: null,
      pixKey: null,
      account: null,
      barcode: cut(segJ!, j.barcode).trim(),
      records,
    };
  }

  private key(segB: string, line: number, field: Field, kind: PixKeyType | 'document', document: CnabDocument | null): RemittanceTitle['pixKey'] {
    let key = cut(segB, field).trim();
    // A CPF/CNPJ key left blank is the payee's document (some ERPs write it only once, in the document field).
    if (key === '' && kind === 'document' && document !== null) key = document.value;
    // "CPF/CNPJ" is one kind in the layouts: the key's own digits tell which (11 a CPF, 14 a CNPJ).
    const type: PixKeyType = kind !== 'document' ? kind : key.replace(/[\s.\/-]/g, '').length === 11 ? 'cpf' : 'cnpj';
    const check = checkPixKey(key, type);
    if (!check.valid || check.normalized === null) {
      this.flag(line, field, { code: 'cnab_pix_key_invalid', key, keyType: type, reason: check.reason ?? { code: 'key_empty' } });
      return null;
    }
    return { type, key: check.normalized };
  }

  /**
   * The payee's account of a segment A: the bank's code, the branch in the DICT's 4 digits and the account with its
   * one check character. Form 05 credits a savings account; the others (01, 03, 41, 43, and 45 with account data,
   * whose layouts carry no account type) a checking account, which the receiver's bank refuses (AC14) when it is not.
   */
  private account(segA: string, line: number, form: string): AccountDestination | null {
    const a = this.layout.segmentA;
    const bank = cut(segA, a.payeeBank);
    const branch = cut(segA, a.payeeBranch);
    const number = cut(segA, a.payeeAccountNumber);
    const digit = cut(segA, a.payeeAccountDigit).trim().toUpperCase();
    const bad = (field: Field, value: string): null => (this.flag(line, field, { code: 'cnab_account_invalid', value }), null);
    if (!/^\d{3}$/.test(bank) || bank === '000') return bad(a.payeeBank, bank);
    if (!/^0\d{4}$/.test(branch)) return bad(a.payeeBranch, branch);
    if (!/^\d+$/.test(number)) return bad(a.payeeAccountNumber, number);
    if (!/^[0-9X]$/.test(digit)) return bad(a.payeeAccountDigit, digit);
    const account = `${number.replace(/^0+(?=\d)/, '')}-${digit}`;
    return { bank, branch: branch.slice(-4), account, accountType: form === '05' ? 'savingsAccount' : 'checkingAccount' };
  }

  /** An amount field in integer centavos (13 digits and 2 decimals, as written); zero is refused. */
  private amount(record: string, line: number, field: Field): number | null {
    const cents = this.number(record, line, field, 'amount');
    if (cents === 0) this.flag(line, field, { code: 'cnab_amount_zero' });
    return cents;
  }

  private number(record: string, line: number, field: Field, name: Cnab240FieldName): number | null {
    const text = cut(record, field);
    if (!/^\d+$/.test(text)) {
      this.problem(line, field, { code: 'cnab_not_number', field: name, value: text });
      return null;
    }
    const n = Number(text);
    if (!Number.isSafeInteger(n)) {
      this.problem(line, field, { code: 'cnab_not_number', field: name, value: text });
      return null;
    }
    return n;
  }

  /** A DDMMAAAA date as YYYY-MM-DD. */
  private date(record: string, line: number, field: Field, name: Cnab240FieldName): string | null {
    const text = cut(record, field);
    const m = /^(\d\d)(\d\d)(\d{4})$/.exec(text);
    const iso = m ? `${m[3]}-${m[2]}-${m[1]}` : '';
    const parsed = new Date(`${iso}T00:00:00Z`);
    if (!m || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso) {
      this.problem(line, field, { code: 'cnab_date_invalid', field: name, value: text });
      return null;
    }
    return iso;
  }

  /**
   * A document field with its type field (1: CPF, 2: CNPJ, numeric or alphanumeric), right-aligned in the field;
   * without a type field (null) the value's length and check digits tell it. One that is not valid is flagged and
   * kept as written, so the file is still read whole.
   */
  private document(record: string, line: number, typeField: Field | null, field: Field, name: Cnab240FieldName): CnabDocument {
    const text = cut(record, field).trim();
    const type = typeField === null ? null : cut(record, typeField);
    const doc = parseDocument(type, text);
    if (doc.ok) return doc.value;
    this.flag(line, field, { code: 'cnab_document_invalid', field: name, value: text, reason: doc.reason });
    const cpf = type === '1' || (type === null && /^0*\d{11}$/.test(text) && text.replace(/^0+/, '').length <= 11);
    return { type: cpf ? 'cpf' : 'cnpj', value: cpf ? text.slice(-11).padStart(11, '0') : text.slice(-14).padStart(14, '0'), valid: false };
  }

  /** A payee's document: blank or zeros mean none given. */
  private optionalDocument(record: string, line: number, typeField: Field | null, field: Field): CnabDocument | null {
    if (/^0*$/.test(cut(record, field).trim())) return null;
    return this.document(record, line, typeField, field, 'payeeDoc');
  }

  private sameBank(record: string, line: number, fileBank: string): void {
    const bank = cut(record, this.layout.fileHeader.bank);
    if (bank !== fileBank) this.problem(line, this.layout.fileHeader.bank, { code: 'cnab_bank_differs', bank, fileBank });
  }

  private expect(record: string, line: number, type: string, expected: string): boolean {
    const found = cut(record, this.layout.fileHeader.recordType);
    if (found === type) return true;
    this.problem(line, this.layout.fileHeader.recordType, { code: 'cnab_record_unexpected', found, expected });
    return false;
  }

  private recordType(index: number): string {
    return cut(this.lines[index]!, this.layout.fileHeader.recordType);
  }

  /** A detail's lot (4-7) is its lot's, and its sequence (9-13) counts the lot's details from 1. */
  private detailPlace(index: number, lot: number, sequence: number): void {
    const line = this.lines[index]!;
    const a = this.layout.segmentA;
    const writtenLot = this.number(line, index + 1, a.lot, 'lot');
    if (writtenLot !== null && writtenLot !== lot) this.problem(index + 1, a.lot, { code: 'cnab_lot_number', written: writtenLot, expected: lot });
    const written = this.number(line, index + 1, a.sequence, 'sequence');
    if (written !== null && written !== sequence) this.problem(index + 1, a.sequence, { code: 'cnab_sequence', written, expected: sequence });
  }

  /** Whether a detail begins a title: an A, or a J that is not a J-52 (which follows its J). */
  private startsTitle(index: number): boolean {
    const line = this.lines[index]!;
    const segment = cut(line, this.layout.segmentA.segment);
    return segment === 'A' || (segment === 'J' && cut(line, this.layout.segmentJ52.code) !== '52');
  }
}
