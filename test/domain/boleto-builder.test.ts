import { describe, expect, it } from 'vitest';
import { buildBankBarcode, buildCollectionBarcode } from '../helpers/boleto.js';
import { decodeBoleto } from '../../src/domain/boleto.js';

// The builder must rebuild real barcodes from their parts (sources as in boleto.test.ts):
// BoletoNet/BoletoNetCore Santander 1012 tests, imobanco/bb-wrapper tests/utils.py, mrmgomes/boleto-utils,
// mcrvaz/boleto-brasileiro-validator, starkbank/febraban-python, and the segment-6 Pix CobV fixture.

describe('buildBankBarcode', () => {
  it.each([
    // [barcode, bankCode, dueDate, amountCents, freeField]
    ['03399693400002717169123456700000000004560101', '033', '2016-10-01', 271716, '9123456700000000004560101'],
    ['34191873400000614011092306628112938349558000', '341', '2021-09-05', 61401, '1092306628112938349558000'],
    ['75691872100000215251419401015749004599691001', '756', '2021-08-23', 21525, '1419401015749004599691001'],
    ['23797000000000000004150090019801673500021140', '237', null, 0, '4150090019801673500021140'],
    ['10499898100000214032006561000100040099726390', '104', '2022-05-10', 21403, '2006561000100040099726390'],
  ] as const)('rebuilds %s', (barcode, bankCode, dueDate, amountCents, freeField) => {
    expect(buildBankBarcode({ bankCode, dueDate, amountCents, freeField })).toBe(barcode);
  });

  it('uses the second factor cycle from 2025-02-22', () => {
    const barcode = buildBankBarcode({ bankCode: '001', dueDate: '2025-02-22', amountCents: 12345, freeField: '0'.repeat(25) });
    expect(barcode.slice(5, 9)).toBe('1000');
    expect(decodeBoleto(barcode, '2025-03-01')).toMatchObject({ valid: true, dueDate: '2025-02-22', amountCents: 12345 });
  });

  it.each([
    [{ bankCode: '01', dueDate: null, amountCents: 1, freeField: '0'.repeat(25) }, 'bankCode must be 3 digits, got "01"'],
    [{ bankCode: '836', dueDate: null, amountCents: 1, freeField: '0'.repeat(25) }, 'bankCode must not start with 8, got "836"'],
    [{ bankCode: '001', dueDate: null, amountCents: 1.5, freeField: '0'.repeat(25) }, 'amountCents must be an integer from 0 to 9999999999, got 1.5'],
    [{ bankCode: '001', dueDate: null, amountCents: 10_000_000_000, freeField: '0'.repeat(25) }, 'amountCents must be an integer from 0 to 9999999999, got 10000000000'],
    [{ bankCode: '001', dueDate: null, amountCents: -1, freeField: '0'.repeat(25) }, 'amountCents must be an integer from 0 to 9999999999, got -1'],
    [{ bankCode: '001', dueDate: null, amountCents: 1, freeField: '0'.repeat(24) }, `freeField must be 25 digits, got "${'0'.repeat(24)}"`],
    [{ bankCode: '001', dueDate: '1997-10-07', amountCents: 1, freeField: '0'.repeat(25) }, 'due date 1997-10-07 is before 1997-10-08, when due-date factors start'],
    [{ bankCode: '001', dueDate: '2025-02-30', amountCents: 1, freeField: '0'.repeat(25) }, 'due date must be a date as YYYY-MM-DD, got "2025-02-30"'],
  ])('refuses %j', (args, message) => {
    expect(() => buildBankBarcode(args)).toThrow(new RangeError(message));
  });
});

describe('buildCollectionBarcode', () => {
  it.each([
    ['83860000005096000190000008017823000034306271', 3, 8, 50960, '0019', '0000008017823000034306271'],
    ['83620000000667800481001809756573100158963608', 3, 6, 6678, '0048', '1001809756573100158963608'],
    ['85800000000600003282126307082112794112788193', 5, 8, 6000, '0328', '2126307082112794112788193'],
    ['81660000001376744242019092120990000002179127', 1, 6, 13767, '4424', '2019092120990000002179127'],
    ['86880000000012320672129401022272100002842506', 6, 8, 123, '20672129', '401022272100002842506'],
  ] as const)('rebuilds %s', (barcode, segment, valueId, amountCents, companyCode, freeField) => {
    expect(buildCollectionBarcode({ segment, valueId, amountCents, companyCode, freeField })).toBe(barcode);
  });

  it('makes reference-value slips that decode as such', () => {
    const barcode = buildCollectionBarcode({ segment: 7, valueId: 9, amountCents: 4200, companyCode: '0123', freeField: '9'.repeat(25) });
    expect(decodeBoleto(barcode, '2025-06-01')).toMatchObject({
      valid: true,
      segment: 7,
      valueIsReference: true,
      amountCents: null,
      government: true,
    });
  });

  it.each<[Parameters<typeof buildCollectionBarcode>[0], string]>([
    [{ segment: 0, valueId: 6, amountCents: 1, companyCode: '0001', freeField: '0'.repeat(25) }, 'segment 0 does not exist (1-7 or 9)'],
    [{ segment: 8, valueId: 6, amountCents: 1, companyCode: '0001', freeField: '0'.repeat(25) }, 'segment 8 does not exist (1-7 or 9)'],
    [{ segment: 3, valueId: 5 as unknown as 6, amountCents: 1, companyCode: '0001', freeField: '0'.repeat(25) }, 'valueId must be 6, 7, 8 or 9, got 5'],
    [{ segment: 3, valueId: 6, amountCents: 100_000_000_000, companyCode: '0001', freeField: '0'.repeat(25) }, 'amountCents must be an integer from 0 to 99999999999, got 100000000000'],
    [{ segment: 6, valueId: 6, amountCents: 1, companyCode: '0001', freeField: '0'.repeat(25) }, 'companyCode (CNPJ root) must be 8 digits, got "0001"'],
    [{ segment: 6, valueId: 6, amountCents: 1, companyCode: '12345678', freeField: '0'.repeat(25) }, `freeField must be 21 digits, got "${'0'.repeat(25)}"`],
    [{ segment: 2, valueId: 6, amountCents: 1, companyCode: '12345678', freeField: '0'.repeat(21) }, 'companyCode must be 4 digits, got "12345678"'],
  ])('refuses %j', (args, message) => {
    expect(() => buildCollectionBarcode(args)).toThrow(new RangeError(message));
  });
});
