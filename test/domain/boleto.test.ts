import { describe, expect, it } from 'vitest';
import { billWindowCloseHour, decodeBoleto, formatBoletoLine, type BoletoDecode } from '../../src/domain/boleto.js';

// Real vectors, each from a public library's test suite or documentation:
//  [mrmgomes]  https://github.com/mrmgomes/boleto-utils — test/test.js
//  [mcrvaz]    https://github.com/mcrvaz/boleto-brasileiro-validator — test/boleto-bancario.js,
//              test/boleto-arrecadacao.js, test/conversor.js
//  [savio]     https://github.com/fernandosavio/boleto-utils — boleto-utils/tests/lib_test.rs,
//              boleto-utils/src/arrecadacao.rs (tests module)
//  [bbwrap]    https://github.com/imobanco/bb-wrapper — tests/utils.py (BarcodeAndCodeLineTestCase)
//  [netcore]   https://github.com/BoletoNet/BoletoNetCore —
//              BoletoNetCore.Testes/Bancos/Santander/Carteiras/BancoSantanderCarteira1012Tests.cs
//  [stark-go]  https://github.com/starkbank/sdk-go — tests/utils/examples/examples.go
//  [stark-py]  https://github.com/starkbank/febraban-python — febraban/cnab240/tests/itau/payment/iptuPaymentTest.py
//  [clip]      https://github.com/viniciusccosta/ClipBarcode — tests (new_boleto arrecadação test)
//  [hamdan]    https://github.com/Hamdan85/VerificadorBoletoBr — README.md
//  [tagliatti] https://github.com/Tagliatti/Boleto-Validator-PHP — README.md
//  [pixcob]    a public Pix CobV test fixture ("testCobV_BanrisulProduction", codigo_de_barras of an ITDC bill);
//              the search index did not record its repository. It is the only real segment-6 (CNPJ) code found.
// Amounts and due dates were checked against each source's own expectations where it states them
// (e.g. [netcore]: R$ 2.717,16 due 2016-10-01; [hamdan]: R$ 73,88 due 2016-04-20, GPS R$ 109,78).

interface BankVector {
  source: string;
  line: string;
  barcode: string;
  amountCents: number | null;
  dueDate: string | null;
  today: string;
}

const BANK: BankVector[] = [
  { source: 'mrmgomes: Caixa 104', line: '10492006506100010004200997263900989810000021403', barcode: '10499898100000214032006561000100040099726390', amountCents: 21403, dueDate: '2022-05-10', today: '2022-05-01' },
  { source: 'mrmgomes: Bradesco credit card, no amount, no due date', line: '23794150099001980167035000211405700000000000000', barcode: '23797000000000000004150090019801673500021140', amountCents: null, dueDate: null, today: '2025-06-01' },
  { source: 'mcrvaz: Bradesco 237', line: '23793.38128 60007.827136 95000.063305 9 75520000370000', barcode: '23799755200003700003381260007827139500006330', amountCents: 370000, dueDate: '2018-06-11', today: '2018-06-01' },
  { source: 'mcrvaz + clip: Banco do Brasil 001', line: '00190.50095 40144.816069 06809.350314 3 37370000000100', barcode: '00193373700000001000500940144816060680935031', amountCents: 100, dueDate: '2007-12-31', today: '2008-01-01' },
  { source: 'bbwrap: Itaú 341', line: '34191092300662811293783495580009187340000061401', barcode: '34191873400000614011092306628112938349558000', amountCents: 61401, dueDate: '2021-09-05', today: '2021-09-01' },
  { source: 'bbwrap: Nubank via Bradesco 237', line: '23793381286006590499132000063308187220000002004', barcode: '23791872200000020043381260065904993200006330', amountCents: 2004, dueDate: '2021-08-24', today: '2021-08-20' },
  { source: 'bbwrap: Banco do Brasil 001', line: '00190000090312855712531230009172684620000010000', barcode: '00196846200000100000000003128557123123000917', amountCents: 10000, dueDate: '2020-12-07', today: '2020-12-01' },
  { source: 'bbwrap: Caixa 104', line: '10497946031520210134976397000027784840000324000', barcode: '10497848400003240007946015202101347639700002', amountCents: 324000, dueDate: '2020-12-29', today: '2020-12-01' },
  { source: 'bbwrap: Sicoob 756', line: '75691419430101574900345996910019187210000021525', barcode: '75691872100000215251419401015749004599691001', amountCents: 21525, dueDate: '2021-08-23', today: '2021-08-20' },
  { source: 'netcore: Santander 033', line: '03399.12347 56700.000005 00045.601010 9 69340000271716', barcode: '03399693400002717169123456700000000004560101', amountCents: 271716, dueDate: '2016-10-01', today: '2016-09-15' },
  { source: 'netcore: Santander 033', line: '03399.12347 56700.000005 00041.401019 3 68730000064932', barcode: '03393687300000649329123456700000000004140101', amountCents: 64932, dueDate: '2016-08-01', today: '2016-07-15' },
  { source: 'stark-go: Itaú 341', line: '34191.09008 76038.597308 71444.640008 4 92150000028000', barcode: '34194921500000280001090076038597307144464000', amountCents: 28000, dueDate: '2022-12-30', today: '2022-12-01' },
  { source: 'hamdan: Itaú 341', line: '34191 75801 03928 662935 80573 180009 4 67700000007388', barcode: '34194677000000073881758003928662938057318000', amountCents: 7388, dueDate: '2016-04-20', today: '2016-04-01' },
  { source: 'tagliatti: Safra 422', line: '42297.11504 00001.954411 60020.034520 2 68610000054659', barcode: '42292686100000546597115000001954416002003452', amountCents: 54659, dueDate: '2016-07-20', today: '2016-07-01' },
];

const BANK_BARCODES_ONLY: Array<[string, string, number, string]> = [
  // [savio] barcodes with their due dates; [source, barcode, amountCents, dueDate]
  ['savio: Sicoob 756', '75696903800002500001434301033723400014933001', 250000, '2022-07-06'],
  ['savio: Banco do Brasil 001', '00191667900002434790000002656973019362470618', 243479, '2016-01-20'],
  ['savio: Banco do Brasil 001', '00195586200000773520000002464206011816073018', 77352, '2013-10-25'],
  ['savio: Banco Cooperativo 755', '75592896700003787000003389850761252543475984', 378700, '2022-04-26'],
  ['savio: Bradesco 237', '23791672000003249052028269705944177105205220', 324905, '2016-03-01'],
  ['savio: Bradesco 237', '23791672000003097902028060007024617500249000', 309790, '2016-03-01'],
];

interface CollectionVector {
  source: string;
  line: string;
  barcode: string;
  amountCents: number;
  segment: number;
  companyCode: string;
}

const COLLECTION: CollectionVector[] = [
  { source: 'mrmgomes: energy, mod 11', line: '838600000050096000190009000801782309000343062712', barcode: '83860000005096000190000008017823000034306271', amountCents: 50960, segment: 3, companyCode: '0019' },
  { source: 'mrmgomes: government, mod 10', line: '858200000007572503282030560708202107539591904460', barcode: '85820000000572503282035607082021053959190446', amountCents: 5725, segment: 5, companyCode: '0328' },
  { source: 'mrmgomes: telecom, mod 10', line: '846300000003299902962024004101360008002006441147', barcode: '84630000000299902962020041013600000200644114', amountCents: 2999, segment: 4, companyCode: '0296' },
  { source: 'mcrvaz: energy, mod 10', line: '836200000005 667800481000 180975657313 001589636081', barcode: '83620000000667800481001809756573100158963608', amountCents: 6678, segment: 3, companyCode: '0048' },
  { source: 'mcrvaz + tagliatti: government, mod 11', line: '85890000460-9 52460179160-5 60759305086-5 83148300001-0', barcode: '85890000460524601791606075930508683148300001', amountCents: 4605246, segment: 5, companyCode: '0179' },
  { source: 'mcrvaz: telecom, mod 11', line: '848900000002404201622015806051904292586034111220', barcode: '84890000000404201622018060519042958603411122', amountCents: 4042, segment: 4, companyCode: '0162' },
  { source: 'savio: energy, mod 11, general remainder 0', line: '838000000009570100310209014044403070000081903200', barcode: '83800000000570100310200140444030700008190320', amountCents: 5701, segment: 3, companyCode: '0031' },
  { source: 'savio: energy, mod 11', line: '836800000025158200060008001012020424366351627315', barcode: '83680000002158200060000010120204236635162731', amountCents: 21582, segment: 3, companyCode: '0006' },
  { source: 'savio: telecom, mod 10', line: '846400000002959900820892998892305413186337691999', barcode: '84640000000959900820899988923054118633769199', amountCents: 9599, segment: 4, companyCode: '0082' },
  { source: 'savio: energy, mod 10', line: '836500000002520801380012319413615117080524946581', barcode: '83650000000520801380013194136151108052494658', amountCents: 5208, segment: 3, companyCode: '0138' },
  { source: 'bbwrap: DAS (Simples Nacional), mod 11', line: '858000000003600003282129630708211275941127881934', barcode: '85800000000600003282126307082112794112788193', amountCents: 6000, segment: 5, companyCode: '0328' },
  { source: 'bbwrap: government convênio, mod 11', line: '858200000082833201802101816624203813055409800012', barcode: '85820000008833201802108166242038105540980001', amountCents: 88332, segment: 5, companyCode: '0180' },
  { source: 'stark-py: IPTU Taboão da Serra (municipal)', line: '816600000011376744242011909212099008000021791272', barcode: '81660000001376744242019092120990000002179127', amountCents: 13767, segment: 1, companyCode: '4424' },
  { source: 'stark-py: telecom', line: '846100000005362700060001200010200000004579865959', barcode: '84610000000362700060002000102000000457986595', amountCents: 3627, segment: 4, companyCode: '0006' },
  { source: 'clip: water (saneamento)', line: '826500000110 314400081704 924000000027 202104000015', barcode: '82650000011314400081709240000000220210400001', amountCents: 113144, segment: 2, companyCode: '0008' },
  { source: 'hamdan: GPS - INSS, mod 11', line: '858900000018 097802702000 323858108001 011520190292', barcode: '85890000001097802702003238581080001152019029', amountCents: 10978, segment: 5, companyCode: '0270' },
  { source: 'tagliatti: energy', line: '83640000001-1 33120138000-2 81288462711-6 08013618155-1', barcode: '83640000001331201380008128846271108013618155', amountCents: 13312, segment: 3, companyCode: '0138' },
  { source: 'pixcob: company identified by CNPJ root, mod 11', line: '868800000005012320672127940102227213000028425065', barcode: '86880000000012320672129401022272100002842506', amountCents: 123, segment: 6, companyCode: '20672129' },
];

const digitsOf = (s: string): string => s.replace(/\D/g, '');

describe('decodeBoleto — real bank slips', () => {
  it.each(BANK)('$source: line', (v) => {
    const d = decodeBoleto(v.line, v.today);
    expect(d).toEqual<BoletoDecode>({
      input: v.line,
      valid: true,
      kind: 'bank',
      barcode: v.barcode,
      line: digitsOf(v.line),
      amountCents: v.amountCents,
      dueDate: v.dueDate,
      bankCode: v.barcode.slice(0, 3),
      segment: null,
      segmentName: null,
      valueIsReference: null,
      companyCode: null,
      government: null,
      utility: null,
      problems: [],
      warnings: [],
    });
  });

  it.each(BANK)('$source: barcode', (v) => {
    const d = decodeBoleto(v.barcode, v.today);
    expect(d.valid).toBe(true);
    expect(d.line).toBe(digitsOf(v.line));
    expect(d.amountCents).toBe(v.amountCents);
    expect(d.dueDate).toBe(v.dueDate);
  });

  it.each(BANK_BARCODES_ONLY)('%s: %s', (_source, barcode, amountCents, dueDate) => {
    const d = decodeBoleto(barcode, dueDate);
    expect(d).toMatchObject({ valid: true, kind: 'bank', amountCents, dueDate, bankCode: barcode.slice(0, 3) });
    expect(decodeBoleto(d.line ?? '', dueDate).barcode).toBe(barcode);
  });
});

describe('decodeBoleto — real collection slips', () => {
  it.each(COLLECTION)('$source: line', (v) => {
    const d = decodeBoleto(v.line, '2025-06-01');
    expect(d).toMatchObject({
      input: v.line,
      valid: true,
      kind: 'collection',
      barcode: v.barcode,
      line: digitsOf(v.line),
      amountCents: v.amountCents,
      dueDate: null,
      bankCode: null,
      segment: v.segment,
      valueIsReference: false,
      companyCode: v.companyCode,
      government: [1, 5, 7].includes(v.segment),
      utility: [2, 3, 4].includes(v.segment),
      problems: [],
    });
    expect(d.segmentName).toEqual(expect.any(String));
  });

  it.each(COLLECTION)('$source: barcode', (v) => {
    expect(decodeBoleto(v.barcode, '2025-06-01')).toMatchObject({ valid: true, line: digitsOf(v.line), amountCents: v.amountCents });
  });

  it('names segments and flags government and utility bills', () => {
    const today = '2025-06-01';
    expect(decodeBoleto('816600000011376744242011909212099008000021791272', today)).toMatchObject({ segment: 1, government: true, utility: false });
    expect(decodeBoleto('826500000110314400081704924000000027202104000015', today)).toMatchObject({ segment: 2, government: false, utility: true });
    expect(decodeBoleto('836200000005667800481000180975657313001589636081', today)).toMatchObject({ segment: 3, government: false, utility: true });
    expect(decodeBoleto('848900000002404201622015806051904292586034111220', today)).toMatchObject({ segment: 4, government: false, utility: true });
    expect(decodeBoleto('858000000003600003282129630708211275941127881934', today)).toMatchObject({ segment: 5, government: true, utility: false });
    expect(decodeBoleto('86880000000012320672129401022272100002842506', today)).toMatchObject({ segment: 6, government: false, utility: false });
    // [savio] synthetic codes of the remaining segments (valid check digits, made up content)
    expect(decodeBoleto('87615555555555566667777777777777777777777777', today)).toMatchObject({ valid: true, segment: 7, government: true, utility: false });
    expect(decodeBoleto('89695555555555566667777777777777777777777777', today)).toMatchObject({ valid: true, segment: 9, government: false, utility: false });
    expect(decodeBoleto('816600000011376744242011909212099008000021791272', today).segmentName).toMatch(/municipal/);
    expect(decodeBoleto('86880000000012320672129401022272100002842506', today).segmentName).toMatch(/CNPJ/);
  });
});

describe('decodeBoleto — input forms', () => {
  const barcode = '03399693400002717169123456700000000004560101';
  it.each([
    '03399.12347 56700.000005 00045.601010 9 69340000271716',
    '03399123475670000000500045601010969340000271716',
    '03399-12347-56700-000005-00045-601010-9-69340000271716',
    '  03399.12347\t56700.000005\n00045.601010 9 69340000271716  ',
  ])('accepts dots, spaces and dashes: %j', (input) => {
    const d = decodeBoleto(input, '2016-09-15');
    expect(d).toMatchObject({ valid: true, barcode, input });
  });

  it('refuses other characters', () => {
    expect(decodeBoleto('03399/12347 56700.000005 00045.601010 9 69340000271716', '2016-09-15')).toMatchObject({
      valid: false,
      kind: null,
      problems: [{ code: 'stray_character', character: '/' }],
    });
  });

  it.each([
    ['', 0],
    ['1234', 4],
    ['0339969340000271716912345670000000000456010', 43],
    ['033996934000027171691234567000000000045601011', 45],
    ['0339912347567000000050004560101096934000027171', 46],
    ['8360000000156678004810001809756573130015896360811', 49],
  ])('refuses %j with the lengths it knows', (input, length) => {
    expect(decodeBoleto(input, '2025-06-01')).toMatchObject({
      valid: false,
      kind: null,
      problems: [{ code: 'wrong_length', length }],
    });
  });

  it('refuses a 47-digit line that starts with 8 (a collection line missing a digit)', () => {
    expect(decodeBoleto('83620000000566780048100018097565731300158963608', '2025-06-01')).toMatchObject({
      valid: false,
      kind: 'collection',
      problems: [{ code: 'short_collection_line', length: 47 }],
    });
  });

  it('throws on a malformed today (a programming error, not bad input)', () => {
    expect(() => decodeBoleto(barcode, '2025-02-30')).toThrow(RangeError);
    expect(() => decodeBoleto(barcode, '01/06/2025')).toThrow(RangeError);
  });
});

describe('decodeBoleto — problems name the field and the digit it should have', () => {
  const today = '2016-09-15';
  const digit = (code: 'general_check_digit', actual: number, expected: number) => ({ code, actual, expected });
  const field = (n: number, actual: number, expected: number) => ({ code: 'field_check_digit', field: n, actual, expected });
  const block = (n: number, actual: number, expected: number) => ({ code: 'block_check_digit', block: n, actual, expected });
  // netcore line 03399.12347 56700.000005 00045.601010 9 69340000271716
  it.each([
    ['03399.12346 56700.000005 00045.601010 9 69340000271716', [field(1, 6, 7)]],
    ['03399.12347 56700.000003 00045.601010 9 69340000271716', [field(2, 3, 5)]],
    ['03399.12347 56700.000005 00045.601011 9 69340000271716', [field(3, 1, 0)]],
    ['03399.12347 56700.000005 00045.601010 4 69340000271716', [digit('general_check_digit', 4, 9)]],
    // a typo in the amount (field 5) is caught only by the general digit
    ['03399.12347 56700.000005 00045.601010 9 69340000271717', [digit('general_check_digit', 9, 6)]],
    // a typo inside field 2 breaks field 2 and (through the barcode) the general digit; the field is reported
    ['03399.12347 56701.000005 00045.601010 9 69340000271716', [field(2, 5, 4)]],
    ['03389.12347 56700.000005 00045.601010 9 69340000271716', [{ code: 'not_reais', currency: 8 }]],
  ])('%s → %j', (line, problems) => {
    expect(decodeBoleto(line, today)).toMatchObject({ valid: false, kind: 'bank', problems, barcode: null, amountCents: null });
  });

  it('reports every failing field at once', () => {
    expect(decodeBoleto('03399.12346 56700.000003 00045.601010 9 69340000271716', today).problems).toEqual([field(1, 6, 7), field(2, 3, 5)]);
  });

  it('bank barcode: general check digit', () => {
    expect(decodeBoleto('03391693400002717169123456700000000004560101', today).problems).toEqual([digit('general_check_digit', 1, 9)]);
  });

  // mcrvaz invalid cases
  it.each([
    ['836200000005667800481800180975657313001589636081', [block(2, 0, 2)]],
    ['848900000002404201622015809051904292586034111220', [block(3, 2, 7)]],
    ['85890000460-9 52460179160-5 60759305086-5 83148300001-1', [block(4, 1, 0)]],
    ['842900000002404201622015806051904292586034111220', [{ code: 'unknown_value_identifier', valueId: 2 }]],
    ['536400000011331201380002812884627116080136181551', [{ code: 'not_collection_product', digit: 5 }]],
    // segment 0 and 8 do not exist; [savio] 886055555553… has valid digits otherwise
    ['806055555553555566667773777777777775777777777775', [{ code: 'unknown_segment', segment: 0 }]],
    ['886055555553555566667773777777777775777777777775', [{ code: 'unknown_segment', segment: 8 }]],
  ])('collection line %s → %j', (line, problems) => {
    expect(decodeBoleto(line, today)).toMatchObject({ valid: false, kind: 'collection', problems });
  });

  it.each([
    ['83620000000667800481001809756573800158963608', [digit('general_check_digit', 2, 5)]], // mcrvaz invalid barcode
    ['84240000000873500240300150349033470804040612', [{ code: 'unknown_value_identifier', valueId: 2 }]],
    ['88605555555555566667777777777777777777777777', [{ code: 'unknown_segment', segment: 8 }]],
  ])('collection barcode %s → %j', (barcode, problems) => {
    expect(decodeBoleto(barcode, today)).toMatchObject({ valid: false, kind: 'collection', problems });
  });

  it('the general check digit of a collection line is checked after the blocks', () => {
    // the general digit (4th) changed together with block 1's check digit, so only the general rule objects
    expect(decodeBoleto('836300000004667800481000180975657313001589636081', today).problems).toEqual([digit('general_check_digit', 3, 2)]);
  });
});

describe('zero amounts and reference values', () => {
  it('a zero amount leaves the amount to the payer (null)', () => {
    expect(decodeBoleto('23794150099001980167035000211405700000000000000', '2025-06-01')).toMatchObject({ valid: true, amountCents: null, dueDate: null });
  });

  it('value identifiers 7 and 9 carry a reference value, not the amount due', () => {
    // [savio] synthetic codes with valid digits
    const ref6 = decodeBoleto('86705555555555566667777777777777777777777777', '2025-06-01');
    expect(ref6).toMatchObject({ valid: true, segment: 6, valueIsReference: true, amountCents: null });
    const ref11 = decodeBoleto('869955555556555566667770777777777773777777777773', '2025-06-01');
    expect(ref11).toMatchObject({ valid: true, segment: 6, valueIsReference: true, amountCents: null, companyCode: '66667777' });
  });
});

describe('billWindowCloseHour', () => {
  const today = '2025-06-01';
  it.each([
    ['bank slip', '34191092300662811293783495580009187340000061401', 20],
    ['company collection (segment 6)', '86880000000012320672129401022272100002842506', 20],
    ['bank-only segment 9', '89695555555555566667777777777777777777777777', 20],
    ['municipal tax (segment 1)', '816600000011376744242011909212099008000021791272', 22],
    ['water (segment 2)', '826500000110314400081704924000000027202104000015', 22],
    ['energy (segment 3)', '836200000005667800481000180975657313001589636081', 22],
    ['telecom (segment 4)', '848900000002404201622015806051904292586034111220', 22],
    ['government (segment 5)', '858000000003600003282129630708211275941127881934', 22],
    ['traffic fine (segment 7)', '87615555555555566667777777777777777777777777', 22],
    ['invalid input', 'nonsense', 20],
  ])('%s → %i', (_name, input, hour) => {
    expect(billWindowCloseHour(decodeBoleto(input, today))).toBe(hour);
  });
});

describe('formatBoletoLine', () => {
  it('prints lines as slips do', () => {
    expect(formatBoletoLine('03399123475670000000500045601010969340000271716')).toBe('03399.12347 56700.000005 00045.601010 9 69340000271716');
    expect(formatBoletoLine('858900004609524601791605607593050865831483000010')).toBe(
      '85890000460-9 52460179160-5 60759305086-5 83148300001-0',
    );
    expect(formatBoletoLine('123')).toBe('123');
  });
});
