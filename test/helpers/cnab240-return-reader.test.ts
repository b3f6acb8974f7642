import { describe, expect, it } from 'vitest';
import { checkCnab240Totals, readCnab240Return } from './cnab240-return-reader.js';

// The oracle's own tests: 240-column records built here from field values at the layouts' positions (1-based,
// inclusive), and the values the reader must find in them, written by hand.

type Field = [from: number, to: number, value: string | number];

/** A record of blanks with each field placed: numbers right-aligned with zeros, texts left-aligned with blanks. */
function record(...fields: Field[]): string {
  const chars: string[] = Array.from({ length: 240 }, () => ' ');
  for (const [from, to, value] of fields) {
    const width = to - from + 1;
    const text = typeof value === 'number' ? String(value).padStart(width, '0') : value.padEnd(width, ' ');
    if (text.length !== width) throw new Error(`fixture: "${value}" does not fit ${from}-${to}`);
    chars.splice(from - 1, width, ...text);
  }
  return chars.join('');
}

const detailOf = (bank: string, lot: number, seq: number, segment: string): Field[] => [[1, 3, bank], [4, 7, lot], [8, 8, '3'], [9, 13, seq], [14, 14, segment]];
const lotTrailer = (bank: string, lot: number, count: number, sum: number): string => record([1, 3, bank], [4, 7, lot], [8, 8, '5'], [18, 23, count], [24, 41, sum], [42, 59, 0]);
const fileTrailer = (bank: string, lots: number, records: number): string => record([1, 3, bank], [4, 7, '9999'], [8, 8, '9'], [18, 23, lots], [24, 29, records]);

const BARCODE = '23799755200003700003381260007827139500006330';

/** A Bradesco Multipag return (FEBRABAN positions): a lot of two Pix transfers (A+B each), a lot of one bill (J, J-52, Z). */
function bradescoLines(): string[] {
  const B = '237';
  return [
    record([1, 3, B], [4, 7, '0000'], [8, 8, '0'], [18, 18, '2'], [19, 32, '12345678000195'], [33, 52, 'CONVENIO1'], [53, 57, 1234],
      [59, 70, 567890], [73, 102, 'ACME PAGAMENTOS LTDA'], [103, 132, 'BANCO BRADESCO S.A.'], [143, 143, '2'], [144, 151, '05112026'],
      [152, 157, '143000'], [158, 163, 42], [164, 166, '089'], [167, 171, 0]),
    record([1, 3, B], [4, 7, 1], [8, 8, '1'], [9, 9, 'C'], [10, 11, '20'], [12, 13, '45'], [14, 16, '046'], [18, 18, '2'],
      [19, 32, '12345678000195'], [73, 102, 'ACME PAGAMENTOS LTDA'], [231, 240, '00']),
    record(...detailOf(B, 1, 1, 'A'), [15, 17, '000'], [18, 20, '009'], [21, 23, '260'], [24, 28, 1], [29, 29, '9'], [30, 41, 1234567],
      [42, 42, '8'], [44, 73, 'MARIA DA SILVA'], [74, 93, 'PB-1-0001'], [94, 101, '05112026'], [102, 104, 'BRL'], [105, 119, 0],
      [120, 134, 150075], [135, 154, 'E2E0001'], [155, 162, '05112026'], [163, 177, 150075], [231, 240, '00']),
    record(...detailOf(B, 1, 2, 'B'), [15, 17, '02'], [18, 18, '1'], [19, 32, '00052998224725'], [128, 226, 'maria@exemplo.com.br']),
    record(...detailOf(B, 1, 3, 'A'), [15, 17, '000'], [18, 20, '009'], [21, 23, '341'], [24, 28, 4321], [29, 29, '0'], [30, 41, 98765],
      [42, 42, '1'], [44, 73, 'JOAO PEREIRA'], [74, 93, 'PB-1-0002'], [94, 101, '05112026'], [102, 104, 'BRL'], [105, 119, 0],
      [120, 134, 20000], [155, 162, 0], [163, 177, 0], [231, 240, 'AGAN']),
    record(...detailOf(B, 1, 4, 'B'), [15, 17, '03'], [18, 18, '2'], [19, 32, '11222333000181'], [33, 67, 'TX123'], [128, 226, '11222333000181']),
    lotTrailer(B, 1, 6, 170075),
    record([1, 3, B], [4, 7, 2], [8, 8, '1'], [9, 9, 'C'], [10, 11, '20'], [12, 13, '31'], [14, 16, '040'], [18, 18, '2'],
      [19, 32, '12345678000195'], [73, 102, 'ACME PAGAMENTOS LTDA']),
    record(...detailOf(B, 2, 1, 'J'), [15, 17, '000'], [18, 61, BARCODE], [62, 91, 'FORNECEDOR BOLETO SA'], [92, 99, '10112026'],
      [100, 114, 370000], [115, 129, 0], [130, 144, 1250], [145, 152, '05112026'], [153, 167, 371250], [168, 182, 0],
      [183, 202, 'PB-2-0001'], [203, 222, 'NN0001'], [223, 224, '09'], [231, 240, '00']),
    record(...detailOf(B, 2, 2, 'J'), [15, 17, '000'], [18, 19, '52'], [20, 20, '2'], [21, 35, '012345678000195'],
      [36, 75, 'ACME PAGAMENTOS LTDA'], [76, 76, '2'], [77, 91, '011222333000181'], [92, 131, 'FORNECEDOR BOLETO SA']),
    record(...detailOf(B, 2, 3, 'Z'), [15, 78, 'AUTH0123456789ABCDEF']),
    lotTrailer(B, 2, 5, 371250),
    fileTrailer(B, 2, 13),
  ];
}

describe('readCnab240Return: FEBRABAN positions (Bradesco Multipag)', () => {
  const r = readCnab240Return(`${bradescoLines().join('\n')}\n`);

  it('reads the file header and trailer', () => {
    expect(r.header).toEqual({
      bank: '237', companyDocumentType: '2', companyDocument: '12345678000195', companyName: 'ACME PAGAMENTOS LTDA',
      remessaRetorno: '2', generatedOn: '2026-11-05', fileSequence: 42, layoutVersion: '089',
    });
    expect(r.trailer).toEqual({ line: 13, lotCount: 2, recordCount: 13 });
    expect(r.recordCount).toBe(13);
  });

  it('reads a lot of Pix transfers: segments A and B, occurrences split into codes', () => {
    const lot = r.lots[0];
    expect(lot && { ...lot, details: undefined }).toEqual({
      line: 2, lotNumber: 1, operation: 'C', service: '20', form: '45', layoutVersion: '046', occurrences: ['00'],
      details: undefined, trailer: { line: 7, recordCount: 6, amountCentavos: 170075 },
    });
    expect(lot?.details).toEqual([
      {
        segment: 'A', line: 3, sequence: 1, movement: '000', chamber: '009', payeeBank: '260', payeeBranchAccount: '0000190000012345678 ',
        payeeAccount: { branch: '00001', branchDigit: '9', account: '000001234567', accountDigit: '8' }, payeeName: 'MARIA DA SILVA',
        seuNumero: 'PB-1-0001', paymentDate: '2026-11-05', amountCentavos: 150075, nossoNumero: 'E2E0001', realDate: '2026-11-05',
        realAmountCentavos: 150075, payeeDocument: null, occurrences: ['00'],
      },
      { segment: 'B', line: 4, sequence: 2, pixInitiation: '02', payeeDocumentType: '1', payeeDocument: '00052998224725', pixTxid: '', pixKey: 'maria@exemplo.com.br' },
      {
        segment: 'A', line: 5, sequence: 3, movement: '000', chamber: '009', payeeBank: '341', payeeBranchAccount: '0432100000000987651 ',
        payeeAccount: { branch: '04321', branchDigit: '0', account: '000000098765', accountDigit: '1' }, payeeName: 'JOAO PEREIRA',
        seuNumero: 'PB-1-0002', paymentDate: '2026-11-05', amountCentavos: 20000, nossoNumero: '', realDate: null,
        realAmountCentavos: 0, payeeDocument: null, occurrences: ['AG', 'AN'],
      },
      { segment: 'B', line: 6, sequence: 4, pixInitiation: '03', payeeDocumentType: '2', payeeDocument: '11222333000181', pixTxid: 'TX123', pixKey: '11222333000181' },
    ]);
  });

  it('reads a lot of bills: segments J, J-52 and Z', () => {
    const lot = r.lots[1];
    expect([lot?.lotNumber, lot?.form, lot?.layoutVersion, lot?.occurrences, lot?.trailer]).toEqual([2, '31', '040', [], { line: 12, recordCount: 5, amountCentavos: 371250 }]);
    expect(lot?.details).toEqual([
      {
        segment: 'J', line: 9, sequence: 1, movement: '000', barcode: BARCODE, payeeName: 'FORNECEDOR BOLETO SA', dueDate: '2026-11-10',
        nominalCentavos: 370000, discountCentavos: 0, interestCentavos: 1250, paymentDate: '2026-11-05', paymentCentavos: 371250,
        seuNumero: 'PB-2-0001', nossoNumero: 'NN0001', occurrences: ['00'],
      },
      { segment: 'J52', line: 10, sequence: 2, payerDocument: '012345678000195', beneficiaryDocument: '011222333000181', beneficiaryName: 'FORNECEDOR BOLETO SA' },
      { segment: 'Z', line: 11, sequence: 3, authentication: 'AUTH0123456789ABCDEF' },
    ]);
  });

  it('finds the totals in agreement', () => {
    expect(checkCnab240Totals(r)).toEqual([]);
  });

  it('reads CRLF lines as LF lines', () => {
    expect(readCnab240Return(`${bradescoLines().join('\r\n')}\r\n`)).toEqual(r);
  });
});

describe('readCnab240Return: Itaú SISPAG differences', () => {
  const I = '341';
  const lines = [
    record([1, 3, I], [4, 7, '0000'], [8, 8, '0'], [15, 17, '080'], [18, 18, '2'], [19, 32, '12345678000195'], [53, 57, 1500],
      [59, 70, 12345], [72, 72, '6'], [73, 102, 'ACME PAGAMENTOS LTDA'], [103, 132, 'BANCO ITAU SA'], [143, 143, '2'],
      [144, 151, '29022028'], [152, 157, '090000'], [158, 166, 0], [167, 171, 0]),
    record([1, 3, I], [4, 7, 1], [8, 8, '1'], [9, 9, 'C'], [10, 11, '20'], [12, 13, '41'], [14, 16, '040'], [18, 18, '2'], [19, 32, '12345678000195']),
    // Note 11a: payee at Itaú: 0, branch 9(4), blank, six zeros, account 9(6), blank, DAC.
    record(...detailOf(I, 1, 1, 'A'), [15, 17, '000'], [18, 20, '000'], [21, 23, '341'], [24, 24, '0'], [25, 28, '1500'], [30, 35, '000000'],
      [36, 41, '012345'], [43, 43, '6'], [44, 73, 'ANA COSTA'], [74, 93, 'PB-9-0001'], [94, 101, '29022028'], [102, 104, 'REA'],
      [105, 112, 0], [113, 119, 0], [120, 134, 99], [135, 149, 'ITAU00000000001'], [155, 162, '29022028'], [163, 177, 99],
      [198, 203, 0], [204, 217, '00052998224725'], [231, 240, '00']),
    // Note 11b: payee at another bank: branch 9(5), blank, account 9(12), a 2-character DAC at 42-43.
    record(...detailOf(I, 1, 2, 'A'), [15, 17, '000'], [18, 20, '018'], [21, 23, '033'], [24, 28, 4321], [30, 41, 98765], [42, 43, '1X'],
      [44, 73, 'BETO LIMA'], [74, 93, 'PB-9-0002'], [94, 101, '29022028'], [102, 104, 'REA'], [105, 119, 0], [120, 134, 1],
      [135, 149, 'ITAU00000000002'], [155, 162, 0], [163, 177, 0], [198, 203, 0], [204, 217, '11222333000181'], [231, 240, 'BD']),
    lotTrailer(I, 1, 4, 100),
    record([1, 3, I], [4, 7, 2], [8, 8, '1'], [9, 9, 'C'], [10, 11, '20'], [12, 13, '31'], [14, 16, '030'], [18, 18, '2'], [19, 32, '12345678000195']),
    // Page 20: blanks at 203-215, nosso número X(15) at 216-230.
    record(...detailOf(I, 2, 1, 'J'), [15, 17, '000'], [18, 61, BARCODE], [62, 91, 'FORNECEDOR'], [92, 99, 0], [100, 114, 5000], [115, 129, 0],
      [130, 144, 0], [145, 152, '29022028'], [153, 167, 5000], [168, 182, 0], [183, 202, 'PB-9-0003'], [216, 230, 'ITAUJ0000000001'], [231, 240, '00']),
    lotTrailer(I, 2, 3, 5000),
    fileTrailer(I, 2, 9),
  ];
  const r = readCnab240Return(lines.join('\n'));

  it('takes the layout version from 15-17 and has no file sequence', () => {
    expect([r.header.bank, r.header.layoutVersion, r.header.fileSequence, r.header.generatedOn]).toEqual(['341', '080', null, '2028-02-29']);
  });

  it('reads the payee account by note 11, nosso número at 135-149 and the payee document at 204-217', () => {
    const [itau, other] = r.lots[0]?.details ?? [];
    expect(itau).toMatchObject({
      payeeAccount: { branch: '1500', branchDigit: '', account: '012345', accountDigit: '6' }, nossoNumero: 'ITAU00000000001',
      payeeDocument: '00052998224725', amountCentavos: 99, realAmountCentavos: 99, occurrences: ['00'],
    });
    expect(other).toMatchObject({
      payeeAccount: { branch: '04321', branchDigit: '', account: '000000098765', accountDigit: '1X' }, chamber: '018',
      nossoNumero: 'ITAU00000000002', payeeDocument: '11222333000181', realDate: null, occurrences: ['BD'],
    });
  });

  it('reads segment J\'s nosso número at 216-230', () => {
    expect(r.lots[1]?.details[0]).toMatchObject({ segment: 'J', dueDate: null, paymentCentavos: 5000, seuNumero: 'PB-9-0003', nossoNumero: 'ITAUJ0000000001' });
    expect(checkCnab240Totals(r)).toEqual([]);
  });
});

describe('readCnab240Return refuses a file out of the layout, naming the line', () => {
  const read = (lines: string[]): (() => unknown) => () => readCnab240Return(lines.join('\n'));

  it('a line that is not 240 characters', () => {
    const lines = bradescoLines();
    lines[3] = (lines[3] ?? '').slice(0, 239);
    expect(read(lines)).toThrow('line 4: 239 characters, expected 240');
    lines[3] = `${lines[3]}  `;
    expect(read(lines)).toThrow('line 4: 241 characters, expected 240');
  });

  it('records out of order', () => {
    const lines = bradescoLines();
    expect(read([lines[0] ?? '', ...lines.slice(2)])).toThrow('line 2: record type 3, expected 1 (lot header) or 9 (file trailer)');
    expect(read(lines.slice(1))).toThrow('line 1: record type 1, expected 0 (file header)');
    expect(read(lines.slice(0, 12))).toThrow('line 12: the file ends without a file trailer (record type 9)');
    expect(read(lines.filter((_, i) => i !== 6))).toThrow('line 7: record type 1 inside lot 0001, expected 3 or 5');
    expect(read([...lines, lines[12] ?? ''])).toThrow('line 14: a record after the file trailer');
  });

  it('a detail of another lot, another bank, or a field that is not digits', () => {
    const lines = bradescoLines();
    const swap = (i: number, from: number, text: string): string[] => lines.map((l, j) => (j === i ? l.slice(0, from - 1) + text + l.slice(from - 1 + text.length) : l));
    expect(read(swap(3, 4, '0002'))).toThrow('line 4: lot "0002" inside lot 0001');
    expect(read(swap(4, 1, '341'))).toThrow('line 5: bank 341, the file header\'s is 237');
    expect(read(swap(2, 120, '00000000015007,'))).toThrow('line 3: amount (120-134) is not digits: "00000000015007,"');
    expect(read(swap(2, 94, '31022026'))).toThrow('line 3: payment date (94-101) is not a date: "31022026"');
  });
});

describe('checkCnab240Totals', () => {
  it('reports each trailer figure that does not add up, with what the file holds', () => {
    const lines = bradescoLines();
    lines[6] = lotTrailer('237', 1, 5, 170000);
    lines[12] = fileTrailer('237', 3, 12);
    expect(checkCnab240Totals(readCnab240Return(lines.join('\n')))).toEqual([
      { where: 1, field: 'recordCount', stated: 5, counted: 6 },
      { where: 1, field: 'amountCentavos', stated: 170000, counted: 170075 },
      { where: 'file', field: 'lotCount', stated: 3, counted: 2 },
      { where: 'file', field: 'recordCount', stated: 12, counted: 13 },
    ]);
  });
});
