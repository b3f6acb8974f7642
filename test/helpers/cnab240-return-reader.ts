/**
 * An independent reader of CNAB 240 payment return files ("arquivo retorno de pagamentos"), the tests' oracle for
 * the return file paybatch writes. Written from the published layouts, by someone who has not read paybatch's
 * writer: it must never import from src/.
 *
 * No npm library was usable (2026-11): @banco-br/nodejs-cnab 0.2.0 reads returns only through cnab_yaml layouts,
 * which for CNAB 240 hold cobrança (T/U) and one generic segment A; nodenab 1.2.1 (GPL-3.0, one release) has
 * Bradesco Multipag layouts only, decodes amounts into floats and builds each lot's trailer from its header line.
 *
 * Positions are 1-based and inclusive, as the layouts print them. Sources:
 *  [FEBRABAN] "Layout Padrão FEBRABAN 240 posições", v10.x (the v10.06 of 16/03/2020 is the one the public
 *             libraries cite): file header/trailer, lot header/trailer, segments A, B (with the Pix fields of
 *             v10.x: "Forma de Iniciação" G100 at 15-17, TX ID 33-67, key 128-226, ISPB 233-240), J, J-52, Z.
 *             Read through public transcriptions: hexdocs.pm ex_cnab 1.3.6 ExCnab.Cnab240.Templates.Details.ModelJ
 *             (segment J), github.com/eduardordm/cnab240 lib/cnab240/segmentos/segmento_j.rb (J), and a public v10.3
 *             field list of the headers, segments A/B/C and trailers with FEBRABAN's field codes (G100, G101,
 *             P007, G049, G056) whose repository the search index did not record.
 *  [SISPAG]   Itaú, "SISPAG – Layout de Arquivos CNAB240 Versão 83" (January 2017), shipped as
 *             github.com/starkbank/febraban-python febraban/cnab240/itau/sispag/layout.pdf: pages 8-37 and notes
 *             8 (occurrences), 11 (payee branch/account), 17 (totals).
 *  [MULTIPAG] Bradesco Multipag, transcribed in nodenab 1.2.1 layouts/237/240/multipag_transferencias.json and
 *             multipag_titulos_cobranca.json: every field read here sits where FEBRABAN puts it.
 * Santander (033) and Banco do Brasil (001): their own payment layouts were not among
 * the documents found, so both are read at FEBRABAN's positions. Itaú's Pix layout (SISPAG v086 and later) was not
 * found either: see `segmentB`.
 */

export interface Cnab240Return {
  header: Cnab240FileHeader;
  lots: Cnab240Lot[];
  trailer: { line: number; lotCount: number; recordCount: number };
  /** Every record of the file, headers and trailers included. */
  recordCount: number;
}

export interface Cnab240FileHeader {
  bank: string;
  /** '1' CPF, '2' CNPJ. */
  companyDocumentType: string;
  companyDocument: string;
  companyName: string;
  /** '1' remessa, '2' retorno. */
  remessaRetorno: string;
  /** YYYY-MM-DD. */
  generatedOn: string;
  /** null for Itaú, whose header has no file sequence. */
  fileSequence: number | null;
  layoutVersion: string;
}

export interface Cnab240Lot {
  line: number;
  lotNumber: number;
  /** 'C' crédito. */
  operation: string;
  service: string;
  form: string;
  layoutVersion: string;
  occurrences: string[];
  details: Cnab240Detail[];
  trailer: { line: number; recordCount: number; amountCentavos: number };
}

export type Cnab240Detail = SegmentA | SegmentB | SegmentJ | SegmentJ52 | SegmentZ | OtherSegment;

interface DetailBase {
  line: number;
  /** Nº sequencial do registro no lote, 9-13. */
  sequence: number;
}

export interface SegmentA extends DetailBase {
  segment: 'A';
  /** Tipo (15) and código (16-17) de movimento, as written. */
  movement: string;
  /** Câmara centralizadora, 18-20 ('009' Pix, '018' TED). */
  chamber: string;
  payeeBank: string;
  /** 24-43 as written. */
  payeeBranchAccount: string;
  payeeAccount: { branch: string; branchDigit: string; account: string; accountDigit: string };
  payeeName: string;
  seuNumero: string;
  paymentDate: string | null;
  amountCentavos: number;
  nossoNumero: string;
  realDate: string | null;
  realAmountCentavos: number;
  /** Itaú only (204-217): FEBRABAN carries the payee's CPF/CNPJ in segment B. */
  payeeDocument: string | null;
  occurrences: string[];
}

export interface SegmentB extends DetailBase {
  segment: 'B';
  /** FEBRABAN G100: '01' phone, '02' e-mail, '03' CPF/CNPJ, '04' random key, '05' bank data; null when blank. */
  pixInitiation: string | null;
  payeeDocumentType: string;
  payeeDocument: string;
  /** Only when `pixInitiation` is given; null otherwise (the same columns then hold an address). */
  pixTxid: string | null;
  pixKey: string | null;
}

export interface SegmentJ extends DetailBase {
  segment: 'J';
  movement: string;
  barcode: string;
  payeeName: string;
  dueDate: string | null;
  nominalCentavos: number;
  discountCentavos: number;
  /** Mora + multa. */
  interestCentavos: number;
  paymentDate: string | null;
  paymentCentavos: number;
  seuNumero: string;
  nossoNumero: string;
  occurrences: string[];
}

/** Segment J with "52" at 18-19: payer and beneficiary of the bill. */
export interface SegmentJ52 extends DetailBase {
  segment: 'J52';
  payerDocument: string;
  beneficiaryDocument: string;
  beneficiaryName: string;
}

export interface SegmentZ extends DetailBase {
  segment: 'Z';
  authentication: string;
}

/** Any other segment (C, N, O, …): counted, not read. */
export interface OtherSegment extends DetailBase {
  segment: 'other';
  code: string;
}

export class Cnab240ReadError extends Error {
  constructor(readonly line: number, detail: string) {
    super(`line ${line}: ${detail}`);
    this.name = 'Cnab240ReadError';
  }
}

const ITAU = '341';

/** One record: its 1-based line number and text, read by the layouts' 1-based inclusive positions. */
class Rec {
  constructor(readonly line: number, readonly text: string) {}

  raw(from: number, to: number): string {
    return this.text.slice(from - 1, to);
  }

  trimmed(from: number, to: number): string {
    return this.raw(from, to).trim();
  }

  digits(from: number, to: number, field: string): string {
    const value = this.raw(from, to);
    if (!/^\d+$/.test(value)) throw new Cnab240ReadError(this.line, `${field} (${from}-${to}) is not digits: "${value}"`);
    return value;
  }

  int(from: number, to: number, field: string): number {
    const n = Number(this.digits(from, to, field));
    if (!Number.isSafeInteger(n)) throw new Cnab240ReadError(this.line, `${field} (${from}-${to}) is too large`);
    return n;
  }

  /** 9(n)V9(2): the digits are the amount in centavos. */
  centavos(from: number, to: number, field: string): number {
    return this.int(from, to, field);
  }

  /** DDMMAAAA to YYYY-MM-DD; all zeros (no date) to null. */
  date(from: number, to: number, field: string): string | null {
    const d = this.digits(from, to, field);
    if (/^0+$/.test(d)) return null;
    const [day, month, year] = [Number(d.slice(0, 2)), Number(d.slice(2, 4)), Number(d.slice(4, 8))];
    const when = new Date(Date.UTC(year, month - 1, day));
    if (when.getUTCFullYear() !== year || when.getUTCMonth() !== month - 1 || when.getUTCDate() !== day) {
      throw new Cnab240ReadError(this.line, `${field} (${from}-${to}) is not a date: "${d}"`);
    }
    return `${d.slice(4, 8)}-${d.slice(2, 4)}-${d.slice(0, 2)}`;
  }

  /** Up to five 2-character codes, blanks dropped ([SISPAG] note 8, [FEBRABAN] G059). */
  occurrences(from: number, to: number): string[] {
    const codes: string[] = [];
    for (let i = from; i < to; i += 2) {
      const code = this.raw(i, i + 1);
      if (code.trim() !== '') codes.push(code);
    }
    return codes;
  }

  get type(): string {
    return this.raw(8, 8);
  }
}

/** Reads a CNAB 240 payment return; throws `Cnab240ReadError` naming the line of the first structural fault. */
export function readCnab240Return(text: string): Cnab240Return {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const records = lines.map((t, i) => new Rec(i + 1, t));
  for (const r of records) {
    if (r.text.length !== 240) throw new Cnab240ReadError(r.line, `${r.text.length} characters, expected 240`);
  }

  const first = records[0];
  if (first === undefined) throw new Cnab240ReadError(1, 'empty file');
  if (first.type !== '0') throw new Cnab240ReadError(1, `record type ${first.type}, expected 0 (file header)`);
  const bank = first.digits(1, 3, 'bank code');
  for (const r of records) {
    if (r.raw(1, 3) !== bank) throw new Cnab240ReadError(r.line, `bank ${r.raw(1, 3)}, the file header's is ${bank}`);
  }
  const header = fileHeader(first, bank);

  const lots: Cnab240Lot[] = [];
  let i = 1;
  while (records[i]?.type === '1') {
    const [lot, next] = readLot(records, i, bank);
    lots.push(lot);
    i = next;
  }
  const last = records[i];
  if (last === undefined) throw new Cnab240ReadError(records.length, 'the file ends without a file trailer (record type 9)');
  if (last.type !== '9') throw new Cnab240ReadError(last.line, `record type ${last.type}, expected 1 (lot header) or 9 (file trailer)`);
  if (last.raw(4, 7) !== '9999') throw new Cnab240ReadError(last.line, `file trailer lot "${last.raw(4, 7)}", expected 9999`);
  const extra = records[i + 1];
  if (extra !== undefined) throw new Cnab240ReadError(extra.line, 'a record after the file trailer');

  return {
    header,
    lots,
    trailer: { line: last.line, lotCount: last.int(18, 23, 'lot count'), recordCount: last.int(24, 29, 'record count') },
    recordCount: records.length,
  };
}

function fileHeader(r: Rec, bank: string): Cnab240FileHeader {
  if (r.raw(4, 7) !== '0000') throw new Cnab240ReadError(r.line, `file header lot "${r.raw(4, 7)}", expected 0000`);
  return {
    bank,
    companyDocumentType: r.raw(18, 18),
    companyDocument: r.digits(19, 32, 'company document'),
    companyName: r.trimmed(73, 102),
    remessaRetorno: r.raw(143, 143),
    generatedOn: generatedOn(r),
    // [SISPAG] p. 8: the layout version is at 15-17 and 158-166 are zeros (no file sequence).
    fileSequence: bank === ITAU ? null : r.int(158, 163, 'file sequence'),
    layoutVersion: bank === ITAU ? r.raw(15, 17) : r.raw(164, 166),
  };
}

function generatedOn(r: Rec): string {
  const date = r.date(144, 151, 'generation date');
  if (date === null) throw new Cnab240ReadError(r.line, 'generation date (144-151) is zeros');
  return date;
}

function readLot(records: Rec[], start: number, bank: string): [Cnab240Lot, number] {
  const h = records[start] as Rec;
  const lotField = h.raw(4, 7);
  const lotNumber = h.int(4, 7, 'lot number');
  const details: Cnab240Detail[] = [];
  let i = start + 1;
  for (let r = records[i]; r !== undefined && r.type === '3'; r = records[++i]) {
    if (r.raw(4, 7) !== lotField) throw new Cnab240ReadError(r.line, `lot "${r.raw(4, 7)}" inside lot ${lotField}`);
    details.push(detail(r, bank));
  }
  const t = records[i];
  if (t === undefined) throw new Cnab240ReadError(records.length, `lot ${lotField} has no trailer (record type 5)`);
  if (t.type !== '5') throw new Cnab240ReadError(t.line, `record type ${t.type} inside lot ${lotField}, expected 3 or 5`);
  if (t.raw(4, 7) !== lotField) throw new Cnab240ReadError(t.line, `trailer of lot "${t.raw(4, 7)}" closes lot ${lotField}`);
  const lot: Cnab240Lot = {
    line: h.line,
    lotNumber,
    operation: h.raw(9, 9),
    service: h.raw(10, 11),
    form: h.raw(12, 13),
    layoutVersion: h.raw(14, 16),
    occurrences: h.occurrences(231, 240),
    details,
    trailer: { line: t.line, recordCount: t.int(18, 23, 'lot record count'), amountCentavos: t.centavos(24, 41, 'lot amount sum') },
  };
  return [lot, i + 1];
}

function detail(r: Rec, bank: string): Cnab240Detail {
  const base = { line: r.line, sequence: r.int(9, 13, 'record sequence') };
  const code = r.raw(14, 14);
  if (code === 'A') return segmentA(r, bank, base);
  if (code === 'B') return segmentB(r, bank, base);
  if (code === 'J' && r.raw(18, 19) === '52') {
    return { segment: 'J52', ...base, payerDocument: r.trimmed(21, 35), beneficiaryDocument: r.trimmed(77, 91), beneficiaryName: r.trimmed(92, 131) };
  }
  if (code === 'J') return segmentJ(r, bank, base);
  // Same 15-78 in [FEBRABAN] and [SISPAG] p. 17.
  if (code === 'Z') return { segment: 'Z', ...base, authentication: r.trimmed(15, 78) };
  return { segment: 'other', ...base, code };
}

function segmentA(r: Rec, bank: string, base: DetailBase): SegmentA {
  const payeeBank = r.raw(21, 23);
  return {
    segment: 'A',
    ...base,
    movement: r.raw(15, 17),
    chamber: r.raw(18, 20),
    payeeBank,
    payeeBranchAccount: r.raw(24, 43),
    payeeAccount: payeeAccount(r, bank, payeeBank),
    payeeName: r.trimmed(44, 73),
    seuNumero: r.trimmed(74, 93),
    paymentDate: r.date(94, 101, 'payment date'),
    amountCentavos: r.centavos(120, 134, 'amount'),
    // [SISPAG] p. 10: nosso número is X(15) at 135-149, then blanks to 154; [FEBRABAN]: X(20) at 135-154.
    nossoNumero: bank === ITAU ? r.trimmed(135, 149) : r.trimmed(135, 154),
    realDate: r.date(155, 162, 'real date'),
    realAmountCentavos: r.centavos(163, 177, 'real amount'),
    payeeDocument: bank === ITAU ? r.digits(204, 217, 'payee document') : null,
    occurrences: r.occurrences(231, 240),
  };
}

function payeeAccount(r: Rec, bank: string, payeeBank: string): SegmentA['payeeAccount'] {
  if (bank === ITAU && (payeeBank === '341' || payeeBank === '409')) {
    // [SISPAG] note 11a: 0 + branch 9(4) at 25-28, blank, six zeros, account 9(6) at 36-41, blank, DAC at 43.
    return { branch: r.raw(25, 28), branchDigit: '', account: r.raw(36, 41), accountDigit: r.trimmed(43, 43) };
  }
  if (bank === ITAU) {
    // [SISPAG] note 11b: branch 9(5) 24-28, blank, account 9(12) 30-41, a 2-character DAC at 42-43 (or 43 alone).
    return { branch: r.raw(24, 28), branchDigit: '', account: r.raw(30, 41), accountDigit: r.trimmed(42, 43) };
  }
  // [FEBRABAN] / [MULTIPAG]: branch 24-28, its digit 29, account 30-41, its digit 42, branch/account digit 43.
  return { branch: r.raw(24, 28), branchDigit: r.trimmed(29, 29), account: r.raw(30, 41), accountDigit: r.trimmed(42, 42) };
}

function segmentB(r: Rec, bank: string, base: DetailBase): SegmentB {
  const initiation = r.trimmed(15, 17);
  const pix = initiation !== '';
  return {
    segment: 'B',
    ...base,
    pixInitiation: pix ? initiation : null,
    payeeDocumentType: r.raw(18, 18),
    payeeDocument: r.digits(19, 32, 'payee document'),
    pixTxid: pix ? r.trimmed(33, 67) : null,
    // [SISPAG] v083 (pre-Pix) has 15-17 blank and an X(100) e-mail at 128-227; its Pix layout was not found, so
    // for Itaú the key is read over that X(100) field, elsewhere over [FEBRABAN]'s X(99) at 128-226.
    pixKey: pix ? (bank === ITAU ? r.trimmed(128, 227) : r.trimmed(128, 226)) : null,
  };
}

function segmentJ(r: Rec, bank: string, base: DetailBase): SegmentJ {
  return {
    segment: 'J',
    ...base,
    movement: r.raw(15, 17),
    barcode: r.raw(18, 61),
    payeeName: r.trimmed(62, 91),
    dueDate: r.date(92, 99, 'due date'),
    nominalCentavos: r.centavos(100, 114, 'nominal value'),
    discountCentavos: r.centavos(115, 129, 'discount'),
    interestCentavos: r.centavos(130, 144, 'interest and fine'),
    paymentDate: r.date(145, 152, 'payment date'),
    paymentCentavos: r.centavos(153, 167, 'payment amount'),
    seuNumero: r.trimmed(183, 202),
    // [SISPAG] p. 20: blanks at 203-215 and nosso número X(15) at 216-230; [FEBRABAN]: X(20) at 203-222.
    nossoNumero: bank === ITAU ? r.trimmed(216, 230) : r.trimmed(203, 222),
    occurrences: r.occurrences(231, 240),
  };
}

export interface Cnab240Disagreement {
  /** 'file' or the lot number. */
  where: 'file' | number;
  field: 'recordCount' | 'amountCentavos' | 'lotCount';
  stated: number;
  counted: number;
}

/**
 * The trailers' totals against the file. A lot counts its header, every detail (B, J-52, Z included) and its
 * trailer ([SISPAG] note 17a, [FEBRABAN] G057); its amount sums segment A's "valor do pagamento" (120-134) and
 * segment J's "valor do pagamento" (153-167) ([SISPAG] note 17b: the total of the payments; [FEBRABAN] P007).
 * The file trailer counts lots (type 1) and every record, types 0 to 9 ([FEBRABAN] G049, G056).
 */
export function checkCnab240Totals(r: Cnab240Return): Cnab240Disagreement[] {
  const out: Cnab240Disagreement[] = [];
  const compare = (where: Cnab240Disagreement['where'], field: Cnab240Disagreement['field'], stated: number, counted: number): void => {
    if (stated !== counted) out.push({ where, field, stated, counted });
  };
  for (const lot of r.lots) {
    compare(lot.lotNumber, 'recordCount', lot.trailer.recordCount, lot.details.length + 2);
    let sum = 0;
    for (const d of lot.details) {
      if (d.segment === 'A') sum += d.amountCentavos;
      if (d.segment === 'J') sum += d.paymentCentavos;
    }
    compare(lot.lotNumber, 'amountCentavos', lot.trailer.amountCentavos, sum);
  }
  compare('file', 'lotCount', r.trailer.lotCount, r.lots.length);
  compare('file', 'recordCount', r.trailer.recordCount, r.recordCount);
  return out;
}
